# The store reuses the load's bounds check, row < rows && col < cols, but writes element
# (out_row, out_col) of out: in the edge tiles it writes outside out (or skips elements it owes),
# reading tile slots no thread loaded: the first of the two the simulator meets is reported.
# expect: (out-of-bounds write|read of uninitialized __shared__ memory) at .*\(task 1\)
# args: --n 33
/__global__ void transpose_tiled_kernel/,/end of task 1/ s|if (out_row < cols && out_col < rows)|if (row < rows \&\& col < cols)|
