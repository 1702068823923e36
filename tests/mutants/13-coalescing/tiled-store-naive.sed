# The tiled transpose writes each element where the naive one does, out[col * rows + row], from
# the cell it has just stored itself: the result is right, but the stores go down a column of
# out, each lane in a different row: 32 sectors per request instead of 4. The tile was for nothing.
# expect: task 1: the tiled transpose's stores: 32\.0 sectors/request, ideal 4\.0
/__global__ void transpose_tiled_kernel/,/end of task 1/ {
  s|if (out_row < cols && out_col < rows)|if (row < rows \&\& col < cols)|
  s|out\[out_row \* rows + out_col\] = tile\[threadIdx.x\]\[threadIdx.y\];|out[col * rows + row] = tile[threadIdx.y][threadIdx.x];|
}
