# Task 4 copies the count into a local variable and adds to the copy, atomically: the atomic
# protects a variable no other thread sees, and *count stays 0.
# expect: the count of primes is wrong \(task 4\)
# args: --n 1000
s|  if (my_primes > 0) atomicAdd(count, my_primes);|  unsigned int total = *count;\n  if (my_primes > 0) atomicAdd(\&total, my_primes);|
