# Task 3 stores B's tile the wrong way round, b_tile[tx][ty]: a transpose of B, right only when B
# is symmetric.
# expect: FAIL: the tiled multiply is wrong \(task 3
# args: --n 17;--n 40
s|b_tile\[threadIdx.y\]\[threadIdx.x\] = b_row|b_tile[threadIdx.x][threadIdx.y] = b_row|
