# Task 1 with gridDim where blockDim belongs: y = blockIdx.y * gridDim.y + threadIdx.y. Right
# where the grid has as many blocks as a block has threads, wrong elsewhere.
# expect: FAIL: no thread wrote some cells \(tasks 1 and 5
# args: --n 1000
s|int y = blockIdx.y \* blockDim.y + threadIdx.y;|int y = blockIdx.y * gridDim.y + threadIdx.y;|
