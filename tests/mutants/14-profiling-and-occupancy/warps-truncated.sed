# Threads divided by the warp size, rounded down: a block of 100 threads counted as 3 warps.
# expect: task 1: [0-9]+ of 21 rows of the table wrong
s|int warps = (threads + sm->warp_size - 1) / sm->warp_size; /\* whole warps \*/|int warps = threads / sm->warp_size > 0 ? threads / sm->warp_size : 1;|
