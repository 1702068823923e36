# Task 4 takes the lane from the rank in the grid (rank % warpSize): right when a block is a
# whole number of warps, wrong for blocks of 100 or 48 threads, where each block starts a new
# warp at lane 0.
# expect: FAIL: a wrong warp or lane \(task 4
# args: --n 1000
s|int lane = thread % warpSize;|int lane = rank % warpSize;|
