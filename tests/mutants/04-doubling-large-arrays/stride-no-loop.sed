# Task 3 without the loop: one element per thread, as in task 1. With fewer threads than
# elements (one block, three blocks) the rest stay NaN.
# expect: FAIL: .*task 3
# args: --n 1000
s|for (int i = blockIdx.x \* blockDim.x + threadIdx.x; i < n; i += stride)|for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += n)|
