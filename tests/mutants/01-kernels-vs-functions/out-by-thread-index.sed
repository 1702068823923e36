# Task 2 writes out[threadIdx.x], Numba's cuda.threadIdx.x where cuda.grid(1) was meant: every
# block writes the first 256 elements, and the rest stay NaN.
# expect: FAIL: out\[i\] is not i\*i .*tasks 1 and 2
# args: --n 1000
s|    out\[i\] = square((float)i);|    out[threadIdx.x] = square((float)i);|
