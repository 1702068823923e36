# The kernel without its bounds check: the last block's threads with i >= n write past the end of
# out. The simulator's bounds checker stops at the first such write and names the line.
# expect: FAIL: a thread wrote past the end of out \(task 2: keep the if \(i < n\)\)
# args: --n 1000
s|  if (i < n) { /\* the last block|  { /* the last block|
