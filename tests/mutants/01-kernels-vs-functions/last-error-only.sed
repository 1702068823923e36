# Task 3 returns cudaGetLastError() and nothing else, as if asking for the error waited for the
# kernel: it does not, and the host reads the output before it is written.
# expect: returned before its kernel had finished \(task 3: cudaDeviceSynchronize
# args: --n 1000
/^  if (launch_status != cudaSuccess) return launch_status;/d
s|  return cudaDeviceSynchronize();|  return launch_status;|
