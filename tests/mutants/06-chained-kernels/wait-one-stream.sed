# Task 4 waits for streams[0] only: the other streams' chunks are not done when the driver reads.
# The simulator runs only the work the host waits for, so this fails every time.
# expect: returned before its work was done \(task 4\?\)
s|cudaStreamSynchronize(streams\[s\])|cudaStreamSynchronize(streams[0])|
