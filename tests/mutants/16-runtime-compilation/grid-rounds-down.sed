# n / SEED_BLOCK blocks: the last n % 256 elements get no thread (and n < 256 gets no block).
# expect: task 3
/---- task 3/,/---- end of task 3/s|(n + SEED_BLOCK - 1) / SEED_BLOCK|n / SEED_BLOCK|
