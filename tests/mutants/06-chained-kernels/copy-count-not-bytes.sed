# Task 3 gives cudaMemcpyAsync the chunk's element count where it wants bytes (Numba's
# to_device counts elements for you): only the first eighth of every chunk goes in and out.
# expect: FAIL: 1 of 4 ways failed; the first: wrong \(task 3\)
# args: --n 1000
s|    size_t bytes = (size_t)count \* sizeof(double);|    size_t bytes = (size_t)count;|
