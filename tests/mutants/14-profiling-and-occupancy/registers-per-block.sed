# The registers per thread taken for the block's: the whole block's registers for each warp.
# expect: task 1: [0-9]+ of 21 rows of the table wrong
s|int per_warp = (registers \* sm->warp_size + unit - 1) / unit \* unit;|int per_warp = (registers * threads * sm->warp_size + unit - 1) / unit * unit;|
