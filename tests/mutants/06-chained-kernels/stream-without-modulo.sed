# Task 3 takes streams[c] for chunk c: there are 16 chunks and only 4 streams, so chunks 4 to 15
# read handles past the end of the driver's array.
# expect: FAIL: 1 of 4 ways failed; the first: error \(task 3\)
# args: --n 1000
s|    cudaStream_t stream = streams\[c % stream_count\];|    cudaStream_t stream = streams[c];|
