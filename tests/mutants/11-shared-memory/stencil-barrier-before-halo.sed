# The barrier moved up, between the tile and the halos: the halos are stored after it, with no
# barrier before the sum reads them (task 2's barrier, in the wrong place).
# expect: FAIL: task 2: .*__syncthreads
/__syncthreads(); \/\* the whole window is loaded/d
s|^  if (threadIdx.x < RADIUS) { /\* the first|  __syncthreads();\n&|
