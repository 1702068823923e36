# A learner's grid of n / threads_per_block blocks: the last partial block is never launched.
# expect: does the block count round up
s|(n + threads_per_block - 1) / threads_per_block|n / threads_per_block|
