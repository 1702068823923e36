# Task 3 copies each chunk back on the next stream, not the one that computed it: nothing orders
# the copy after the kernels. The simulator reports the unordered copies as a stream race.
# expect: stream race.*task 3
s|cudaMemcpyDeviceToHost, stream)|cudaMemcpyDeviceToHost, streams[(c + 1) % stream_count])|
