# Task 1 takes i from threadIdx.x alone (Numba's cuda.threadIdx.x where cuda.grid(1) was meant):
# every block doubles the first 128 elements, and the rest stay NaN.
# expect: FAIL: out\[i\] is not 2 \* in\[i\] .*\(tasks 1 and 2\)
# args: --n 1000
/^  \/\/ ---- task 1:/,/end of task 1/s|int i = blockIdx.x \* blockDim.x + threadIdx.x;|int i = threadIdx.x;|
