# Task 1 numbers its samples from 1 to samples, as a formula written with i = 1..N would: one
# sample is left out and one is added, so the count is off by one whenever the two differ.
# expect: the loop must draw samples 0 to samples - 1
# args: --n 17
s|for (long long i = 0; i < samples; ++i)|for (long long i = 1; i <= samples; ++i)|
