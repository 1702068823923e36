# A seed from the clock in place of the one given: two runs with one --seed draw different
# numbers. The driver draws twice from one seed: the samples must be equal.
# expect: FAIL: task 4: one seed gave two samples: seed with the seed given
s|curandSetPseudoRandomGeneratorSeed(\*generator, seed);|curandSetPseudoRandomGeneratorSeed(*generator, seed + (unsigned long long)clock());|
1i\
#include <time.h>
