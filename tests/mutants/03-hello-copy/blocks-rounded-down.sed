# Task 3 with n / 256 blocks: the last partial block's elements are never copied, and for
# n < 256 the grid has 0 blocks, which is itself an invalid configuration.
# expect: FAIL: copy_many_blocks .*\(task 3
# args: --n 1;--n 1000
s|int blocks = (n + COPY_BLOCK_SIZE - 1) / COPY_BLOCK_SIZE;|int blocks = n / COPY_BLOCK_SIZE;|
