# Task 1 launches ufunc_blocks(n) blocks and has no loop: one element per thread. ufunc_blocks
# caps the grid at what the GPU keeps resident, so for a large n the tail is never written.
# expect: FAIL: add_f32_on_device is wrong \(tasks 1 and 2\)
# args: --n 100003
s|    for (long long i = (long long)blockIdx.x \* blockDim.x + threadIdx.x; i < n; i += stride)       \\|    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; (void)stride;                 \\\n    if (i < n)                                                                                     \\|
