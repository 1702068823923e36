# Task 2 rescues the launch that cannot start, with more blocks when n > 1024: the copy works,
# but the point of the task (a refused launch, reported) is lost.
# expect: FAIL: a block too big to start was not reported \(task 2: ONE block
# args: --n 1000
s|  copy_kernel<<<1, n>>>(d_in, d_out, n);|  if (n > 1024) copy_kernel<<<(n + 1023) / 1024, 1024>>>(d_in, d_out, n);\n  else copy_kernel<<<1, n>>>(d_in, d_out, n);|
