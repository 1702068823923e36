# Task 3 makes a stream of its own for every chunk instead of using the ones given, waits for it,
# and never destroys it: every call leaks a stream per chunk.
# expect: task 3: a stream made on line [0-9]+ is never destroyed
s|    cudaStream_t stream = streams\[c % stream_count\];|    cudaStream_t stream;\n    cudaStreamCreate(\&stream);|
s|cudaMemcpyDeviceToHost, stream);|&\n    if (status == cudaSuccess) status = cudaStreamSynchronize(stream);|
