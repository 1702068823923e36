# Task 4 copies back with cudaMemcpyHostToDevice: the direction named does not match the
# pointers (dev_out is device memory, host_out host memory).
# expect: FAIL: .*cudaErrorInvalidValue \(task 4\)
# args: --n 1000
s|  return cudaMemcpy(host_out, dev_out, bytes, cudaMemcpyDeviceToHost);|  return cudaMemcpy(host_out, dev_out, bytes, cudaMemcpyHostToDevice);|
