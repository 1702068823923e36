# Task 1 takes x from threadIdx.x alone (Numba's cuda.threadIdx.x where cuda.grid(3) was meant):
# every block writes the first block's cells, and the rest of the data stays empty.
# expect: FAIL: no thread wrote some cells \(tasks 1 and 5
# args: --n 1000
s|int x = blockIdx.x \* blockDim.x + threadIdx.x;|int x = threadIdx.x;|
