# Task 1 draws its samples from rand(), a generator with state, instead of the sample's own
# number: the samples then depend on how the threads interleave, not on i, and the count no
# longer equals the serial one.
# expect: Wrong on one thread too: are the samples drawn from i
# args: --n 33 --threads 3
s|hits += pi_sample_inside(seed, (uint64_t)i);|hits += pi_sample_inside(seed, (uint64_t)rand());|
s|#include <omp.h>|#include <omp.h>\n#include <stdlib.h>|
