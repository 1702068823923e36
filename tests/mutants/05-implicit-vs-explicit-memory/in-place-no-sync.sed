# Task 2 returns without waiting: with managed or mapped memory no copy makes the host wait, and
# it reads out before the kernel has run.
# expect: way 1: the result was right only after .*\(task 2: no copy waits
# args: --n 1000
s|  return cudaDeviceSynchronize(); /\* the host may read out only after this \*/|  return cudaSuccess;|
