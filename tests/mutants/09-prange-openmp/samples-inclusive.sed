# Task 1's loop runs to i <= samples (Python's range(samples) stops before samples): one sample
# too many, on every thread count.
# expect: the loop must draw samples 0 to samples - 1
# args: --n 17
s|for (long long i = 0; i < samples; ++i)|for (long long i = 0; i <= samples; ++i)|
