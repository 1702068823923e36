# Task 3 starts every thread's loop at threadIdx.x: each block walks the same elements, and
# with more than one block the elements past the first block's share stay NaN.
# expect: FAIL: .*task 3
# args: --n 1000
s|for (int i = blockIdx.x \* blockDim.x + threadIdx.x; i < n; i += stride)|for (int i = threadIdx.x; i < n; i += stride)|
