# Task 4 tidies up after waiting and destroys the streams: they belong to the driver, which uses
# them again for the next call (and destroys them itself at the end).
# expect: FAIL: 1 of 4 ways failed; the first: streams gone \(task 4\)
# args: --n 1000
s|    if (status == cudaSuccess) status = waited; /\* wait for all, even after an error \*/|    if (status == cudaSuccess) status = waited;\n    cudaStreamDestroy(streams[s]); /* "clean up what you use" */|
