# The stencil returns early for i >= n, the habit of earlier lessons: those threads never reach
# the barrier, and their cells of the window are never set to 0.
# expect: FAIL: not every thread of a block reached __syncthreads\(\) \(tasks 1 and 2\)
# args: --n 17;--n 40
s|^  int local = threadIdx.x + RADIUS;  *\(/\*.*\)$|  int local = threadIdx.x + RADIUS; \1\n  if (i >= n) return;|
