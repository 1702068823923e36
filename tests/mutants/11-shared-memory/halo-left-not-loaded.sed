# Task 1 stores the right halo and forgets the left one.
# expect: FAIL: task 1: .*halo
/window\[threadIdx.x\] = left/d
