# The tiled transpose loads its tile without the bounds check: the threads of an edge tile that
# lie outside the matrix read past its rows (wrong row) or past its end (out of bounds). Right
# only when both sides are multiples of TILE.
# expect: out-of-bounds read at .*\(task 1\)
# args: --n 33
/__global__ void transpose_tiled_kernel/,/end of task 1/ s|if (row < rows && col < cols) tile|tile|
