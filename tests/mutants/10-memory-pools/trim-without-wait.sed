# trim_pool without waiting for the stream: the last cudaFreeAsync has not happened yet, so the
# memory it frees is still in use and the trim cannot give it back.
# expect: did it wait for the stream
# args: --n 1;--n 1000
s|cudaError_t status = cudaStreamSynchronize(stream);|cudaError_t status = cudaSuccess;|
