# Task 1 with i <= n: the thread with i == n reads in[n] and writes out[n], one past the end.
# expect: FAIL: .*\(task 1: the bounds check
# args: --n 1000
s|if (i < n) out\[i\] = in\[i\];|if (i <= n) out[i] = in[i];|
