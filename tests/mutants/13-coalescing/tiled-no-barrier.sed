# The tiled transpose without __syncthreads(): a thread reads the cell of the tile that another
# thread, in another warp, has not stored yet.
# expect: data race at .*\(task 1\).*__syncthreads
/__global__ void transpose_tiled_kernel/,/end of task 1/ s|__syncthreads(); /\* the whole tile is loaded \*/|{} /* the whole tile is loaded */|
