# Task 4 adds 1 per thread that found a prime (as a cuda.atomic.add(count, 0, 1) moved out of
# the loop would): the count is the number of threads, not of primes.
# expect: the count of primes is wrong \(task 4\)
# args: --n 1000;--n 100003
s|  if (my_primes > 0) atomicAdd(count, my_primes);|  if (my_primes > 0) atomicAdd(count, 1u);|
