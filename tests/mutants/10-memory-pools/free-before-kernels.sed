# Task 2 frees the temporary right after allocating it, as if cudaFreeAsync waited for the work
# that follows it: in stream order the kernels then use memory already given back.
# expect: FAIL: steps_with_pool.s kernels failed \(task 2\)
# args: --n 1000
/cudaMallocAsync((void \*\*)&d_tmp/a\    if (status == cudaSuccess) status = cudaFreeAsync(d_tmp, stream);
s|    status = cudaFreeAsync(d_tmp, stream);|    status = cudaSuccess;|
