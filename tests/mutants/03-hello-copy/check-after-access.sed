# Task 1 checks after the access: out[i] = in[i]; if (i >= n) return; has already written.
# expect: FAIL: .*\(task 1: the bounds check
# args: --n 1000
s|if (i < n) out\[i\] = in\[i\];|out[i] = in[i];\n  if (i >= n) return;|
