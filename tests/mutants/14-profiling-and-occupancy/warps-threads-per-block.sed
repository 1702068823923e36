# The warp limit as threads per SM over threads per block: 100 threads give 20 blocks, not the 16
# that their 4 whole warps allow (seen at 16 registers, where registers do not decide).
# expect: task 1: [0-9]+ of 21 rows of the table wrong
s|int by_warps = sm->max_threads_per_sm / sm->warp_size / warps;|int by_warps = sm->max_threads_per_sm / threads;|
