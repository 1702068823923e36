# Task 1 starts the right halo at i + RADIUS instead of just after the block's last element.
# expect: FAIL: the stencil is wrong \(tasks 1 and 2: halos
# args: --n 17;--n 40
s|int left = i - RADIUS, right = i + STENCIL_BLOCK;|int left = i - RADIUS, right = i + RADIUS;|
