# Task 2 asks cudaMallocAsync for n bytes, CuPy-style, not n ints: the kernels write four times
# past the end of the temporary.
# expect: FAIL: steps_with_pool.s kernels failed \(task 2\)
# args: --n 1000
s|    cudaError_t status = cudaMallocAsync((void \*\*)&d_tmp, n \* sizeof(int), stream);|    cudaError_t status = cudaMallocAsync((void **)\&d_tmp, n, stream);|
