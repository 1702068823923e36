# Warps as threads / 32, rounded down: a block of 1 thread has 0 warps, and the warp limit
# divides by zero. The crash names the signal, the function, the line and the task.
# expect: integer division by zero \(SIGFPE\) in blocks_per_sm at [^ ]+:[0-9]+ \(task 1\)
s|int warps = (threads + sm->warp_size - 1) / sm->warp_size; /\* whole warps \*/|int warps = threads / sm->warp_size;|
