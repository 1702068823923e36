# Task 3 strides by blockDim.x, not by the whole grid: every block walks the numbers from its own
# start to the end, so most numbers are tested, flagged and counted by several blocks.
# expect: FAIL: the count is too large: numbers counted twice \(task 3 or 4\)
# args: --n 1000;--n 100003
s|  int stride = gridDim.x \* blockDim.x;|  int stride = blockDim.x;|
