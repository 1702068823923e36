# Task 1 starts the grid-stride loop at threadIdx.x alone (Numba's cuda.grid(1) adds the block
# offset for you): every block walks the same elements, and those between blockDim.x and the
# stride are never written.
# expect: FAIL: add_f32_on_device is wrong \(tasks 1 and 2\)
# args: --n 1000;--n 100003
s|    for (long long i = (long long)blockIdx.x \* blockDim.x + threadIdx.x; i < n; i += stride)       \\|    for (long long i = threadIdx.x; i < n; i += stride)                                            \\|
