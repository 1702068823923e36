# Task 2 never gives its temporaries back: every step takes more of the pool.
# expect: still in use after every free \(task 2: cudaFreeAsync\)
s|    status = cudaFreeAsync(d_tmp, stream);|    status = cudaSuccess;|
