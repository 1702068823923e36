# The shuffle loop stops one step early: lane 0 never adds lane 1's partial sum.
# expect: task 3.*__shfl_down_sync
s|for (int offset = warpSize / 2; offset > 0; offset /= 2)|for (int offset = warpSize / 2; offset > 1; offset /= 2)|
