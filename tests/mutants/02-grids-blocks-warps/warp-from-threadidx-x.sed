# Task 4 takes the warp and lane from threadIdx.x alone: right in 1D, wrong once a block has
# more than one row.
# expect: FAIL: a wrong warp or lane \(task 4: from task 3's thread
# args: --n 1000
s|int warp = thread / warpSize;|int warp = threadIdx.x / warpSize;|
s|int lane = thread % warpSize;|int lane = threadIdx.x % warpSize;|
