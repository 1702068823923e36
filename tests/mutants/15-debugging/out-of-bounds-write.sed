# Task 1 as shipped: the bounds check lets one thread too many through, i <= n: thread n writes
# the float just past the end of the signal (memcheck's "Invalid __global__ write" on a GPU).
# expect: out-of-bounds write at [a-z-]+\.cu:[0-9]+ \(task 1\).*FAIL: fill_kernel: cudaErrorIllegalAddress in task 1
# args: --n 100;--n 1000
s|if (i < n) signal\[i\] =|if (i <= n) signal[i] =|
