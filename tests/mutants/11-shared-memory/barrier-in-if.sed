# Task 2's barrier inside if (i < n): the last block's idle threads never reach it, which is
# undefined behaviour on a GPU (a hang, or a barrier that does not wait).
# expect: FAIL: not every thread of a block reached __syncthreads\(\) \(tasks 1 and 2\)
# args: --n 17;--n 40
/__syncthreads(); \/\* the whole window is loaded/d
s|^  if (i < n) {$|  if (i < n) {\n    __syncthreads();|
