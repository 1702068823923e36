# Task 3's block number with blockDim where gridDim belongs: right in 1D, wrong in 2D and 3D.
# expect: FAIL: a wrong block number \(task 3: gridDim, not blockDim\)
# args: --n 1000
s|int block = (blockIdx.z \* gridDim.y + blockIdx.y) \* gridDim.x + blockIdx.x;|int block = (blockIdx.z * blockDim.y + blockIdx.y) * blockDim.x + blockIdx.x;|
