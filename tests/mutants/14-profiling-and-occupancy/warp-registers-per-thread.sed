# A warp's registers taken as the per-thread count: the warp's 32 threads never multiplied in.
# expect: task 1: [0-9]+ of 21 rows of the table wrong
s|int per_warp = (registers \* sm->warp_size + unit - 1) / unit \* unit;|int per_warp = (registers + unit - 1) / unit * unit;|
