# Task 3 calls cudaGetLastError() a second time to return the error: the first call reset it, so
# the second returns cudaSuccess and the refused launch goes unreported.
# expect: failed launch was not reported \(task 3: .*cudaGetLastError
# args: --n 1000
s|return launch_status;|return cudaGetLastError();|
