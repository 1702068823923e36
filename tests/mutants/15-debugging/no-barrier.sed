# Task 2 as shipped: no __syncthreads() between the stores into the window and the reads of the
# neighbours' cells: thread 0 reads window[2] before thread 1 stores it (racecheck on a GPU).
# expect: data race at [a-z-]+\.cu:[0-9]+ \(task 2\).*FAIL: smooth_kernel: cudaErrorLaunchFailure in task 2
# args: --n 1;--n 256;--n 1000
/__syncthreads(); *\/\* every cell of the window is written/d
