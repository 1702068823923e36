# A block size that is not a multiple of 32: 1000 threads, 24 idle lanes in the last warp.
# expect: task 2: blocks of 1000 threads are not whole warps of 32
s|  if (grid > min_grid) grid = min_grid; /\* fill the device once, no more \*/|  block = 1000;|
