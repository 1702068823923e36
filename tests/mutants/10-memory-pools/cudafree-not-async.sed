# Pool memory given back with cudaFree: legal, but it synchronizes the device at every step.
# expect: steps_with_pool waited for the GPU \(task 2: cudaFreeAsync\)
# args: --n 1;--n 1000
s|status = cudaFreeAsync(d_tmp, stream);|status = cudaFree(d_tmp);|
