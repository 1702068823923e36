# Task 2's barrier inside `if (i < n)`: the last block's threads past the end skip it while the
# others wait there. Undefined behaviour on a GPU (a hang, or a wrong answer); the simulator
# refuses it and names the barrier's line.
# expect: FAIL: smooth_kernel: cudaError[A-Za-z]+ in task 2
# args: --n 1000
s|^  __syncthreads(); *\(/\* every cell of the window is written \*/\)|  if (i < n) __syncthreads(); \1|
