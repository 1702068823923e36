# Lesson 04's mistake: a grid-stride launch of one block per SM, when each SM holds two.
# expect: task 2: a grid of [0-9]+ blocks leaves SMs idle
s|  if (grid > min_grid) grid = min_grid; /\* fill the device once, no more \*/|  cudaDeviceGetAttribute(\&grid, cudaDevAttrMultiProcessorCount, 0);|
