# Task 3 flattens the thread's position y fastest instead of x fastest ((x * height + y)): the
# warps no longer run along a row, and every number built on it is wrong.
# expect: FAIL: a wrong thread number \(task 3: x, then y, then z\)
# args: --n 1000
s|int thread = (threadIdx.z \* blockDim.y + threadIdx.y) \* blockDim.x + threadIdx.x;|int thread = (threadIdx.z * blockDim.x + threadIdx.x) * blockDim.y + threadIdx.y;|
