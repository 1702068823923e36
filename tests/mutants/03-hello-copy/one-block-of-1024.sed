# Task 2 launches the largest block there is, <<<1, 1024>>>, whatever n is: the launch of 1025
# threads is not refused, and element 1024 is never copied.
# expect: FAIL: .*task 2
# args: --n 1000
s|  copy_kernel<<<1, n>>>(d_in, d_out, n);|  copy_kernel<<<1, 1024>>>(d_in, d_out, n);|
