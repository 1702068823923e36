# Task 2 waits with __syncwarp() instead of __syncthreads(): the cells other warps store (a
# warp's edge neighbours, the right halo) are read before they are there. n = 3 fits one warp,
# where it is right; 17 and 40 are several warps.
# expect: FAIL: task 2: .*__syncthreads
# args: --n 17;--n 40
s|  __syncthreads(); /\* the whole window is loaded \*/|  __syncwarp();|
