# Task 2 squares the index in int, as Python would (its integers never overflow): (float)(i * i)
# overflows a 32-bit int from i = 46341 on, and out[i] is garbage there.
# expect: FAIL: out\[i\] is not i\*i .*tasks 1 and 2
# args: --n 100003
s|    out\[i\] = square((float)i);|    out[i] = (float)(i * i);|
