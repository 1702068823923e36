# Task 4 with the wait's status ignored: cudaDeviceSynchronize() returns the kernels' errors, and
# the pipeline reads a peak from memory a failed kernel never finished. The driver makes a kernel
# fail on purpose (cusim_plant_kernel_failure, simulator only): the pipeline must return -1.
# expect: FAIL: task 4: a kernel failed: check what cudaDeviceSynchronize\(\) returns
# args: --n 1;--n 1000
s|if (cudaDeviceSynchronize() != cudaSuccess) return -1.0f;|cudaDeviceSynchronize();|
