# The shared count with a plain read-add-write: two threads read the same count, each adds its
# primes, and one addition is lost. On a GPU it fails only sometimes (a student's variant passed
# the largest size by luck); the simulator's race checker finds it on every run.
# expect: data race at .*\(task 4\).*atomic
s|if (my_primes > 0) atomicAdd(count, my_primes);|if (my_primes > 0) *count += my_primes;|
