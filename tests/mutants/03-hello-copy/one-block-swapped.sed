# Task 2 as <<<n, 1>>>: n blocks of one thread each, the numbers in the wrong order. The copy is
# right, but nothing is refused: a grid may have millions of blocks.
# expect: FAIL: .*task 2
# args: --n 1000
s|  copy_kernel<<<1, n>>>(d_in, d_out, n);|  copy_kernel<<<n, 1>>>(d_in, d_out, n);|
