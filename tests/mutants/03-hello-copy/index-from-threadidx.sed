# Task 1 takes i from threadIdx.x alone (Numba's cuda.threadIdx.x where cuda.grid(1) was meant):
# the one-block copy works, and with many blocks every block copies the first 256 elements.
# expect: FAIL: copy_many_blocks .*\(task 
# args: --n 1000
s|int i = blockIdx.x \* blockDim.x + threadIdx.x;|int i = threadIdx.x;|
