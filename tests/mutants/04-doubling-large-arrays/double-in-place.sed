# Task 1 doubles out in place, as the Python original did to its one array: out[i] *= 2 reads
# the driver's NaN fill, not in.
# expect: FAIL: out\[i\] is not 2 \* in\[i\] .*\(tasks 1 and 2\)
# args: --n 1000
s|  if (i < n) out\[i\] = 2.0 \* in\[i\];|  if (i < n) out[i] *= 2.0;|
