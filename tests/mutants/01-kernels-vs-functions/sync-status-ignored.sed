# Task 3 waits but throws the wait's status away: a kernel that fails while it runs (a bad
# pointer) is passed off as a success.
# expect: FAIL: a kernel that failed was reported as a success \(task 3: return
# args: --n 1000
s|  return cudaDeviceSynchronize();|  cudaDeviceSynchronize();\n  return cudaSuccess;|
