# Blocks of one warp: the 32-blocks-per-SM limit leaves half the warp slots empty.
# expect: task 2: occupancy 50%, under the target 100%
s|  if (grid > min_grid) grid = min_grid; /\* fill the device once, no more \*/|  block = 32;|
