# Task 1 writes one element per thread with no grid-stride loop: blocks_for(n) caps the grid at
# 4096 blocks of 256 threads, so past 1,048,576 elements the tail of x is never written.
# expect: x is not 0, 1, 2, ... \(task 1
# args: --n 1;--n 1000
s|  for (size_t i = (size_t)blockIdx.x \* blockDim.x + threadIdx.x; i < n; i += stride)|  (void)stride;\n  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n)|
