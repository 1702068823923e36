# Task 4 waits for each stream through an event recorded on it, and never destroys the events:
# every call leaks one per stream.
# expect: task 4: an event made on line [0-9]+ is never destroyed
s|    cudaError_t waited = cudaStreamSynchronize(streams\[s\]);|    cudaEvent_t done;\n    cudaError_t waited = cudaEventCreate(\&done);\n    if (waited == cudaSuccess) waited = cudaEventRecord(done, streams[s]);\n    if (waited == cudaSuccess) waited = cudaEventSynchronize(done);|
