# Task 3 waits but throws the wait's status away: a kernel that fails while it runs (a bad
# pointer) is passed off as a success.
# expect: FAIL: a failed kernel came back as cudaSuccess \(task 3: keep the sync's status
# args: --n 1000
s|  return cudaDeviceSynchronize();|  cudaDeviceSynchronize();\n  return cudaSuccess;|
