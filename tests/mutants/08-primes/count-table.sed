# A table in place of the count: the number of primes below each shipped size, written by one
# thread, with no atomic. It passes every shipped size (and the default run); the grade's seeded
# run checks a size in (n/2, n) of its own (wb_seeded_n), where the table has no entry.
# passes: shipped
# args: --n 1000 --seed 7;--n 1000 --seed 4242
# expect: FAIL: the count of primes is wrong \(task 4\)
s#if (my_primes > 0) atomicAdd(count, my_primes);#(void)my_primes;\
  if (blockIdx.x == 0 \&\& threadIdx.x == 0)\
    *count = n == 3 ? 1u : n == 10 ? 4u : n == 1000 ? 168u : n == 2500 ? 367u\
           : n == 100003 ? 9592u : n == 1000000 || n == 1000003 ? 78498u : 0u;#
