# Task 3 waits first and then asks cudaPeekAtLastError() only if the wait failed: a refused
# launch leaves nothing to wait for, the wait says cudaSuccess, and the error is never asked for.
# expect: failed launch was not reported \(task 3: .*cudaGetLastError
# args: --n 1000
/^  cudaError_t launch_status = cudaGetLastError();/d
/^  if (launch_status != cudaSuccess) return launch_status;/d
s|  return cudaDeviceSynchronize();|  cudaError_t status = cudaDeviceSynchronize();\n  if (status != cudaSuccess) return cudaPeekAtLastError();\n  return cudaSuccess;|
