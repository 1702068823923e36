# Task 2 rounds to the nearest block count, as Python's round(n / threads_per_block) does: where
# the last block would be less than half full it is dropped, and its elements stay NaN.
# expect: FAIL: the last .* not written \(task 2: round the block count up\)
# args: --n 100003
s|int blocks = (n + threads_per_block - 1) / threads_per_block;|int blocks = (int)lround((double)n / threads_per_block);|
