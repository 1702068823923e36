# A constant seed in place of the one given: every run, whatever its --seed, draws the same
# numbers. The driver draws from two seeds: they must differ.
# expect: FAIL: task 4: two seeds gave one sample: seed with the seed given
s|curandSetPseudoRandomGeneratorSeed(\*generator, seed);|curandSetPseudoRandomGeneratorSeed(*generator, 1234ULL);\n  (void)seed;|
