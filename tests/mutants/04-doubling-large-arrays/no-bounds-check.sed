# Task 1 without if (i < n): right at multiples of 128, and at every other size the last block's
# idle threads write past the end of out, into the driver's fence.
# expect: FAIL: threads past the end wrote to memory \(task 1: the bounds check\)
# args: --n 1000
s|  if (i < n) out\[i\] = 2.0 \* in\[i\];|  out[i] = 2.0 * in[i];|
