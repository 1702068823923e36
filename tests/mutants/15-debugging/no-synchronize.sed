# Task 4 as shipped: the host reads smoothed[] right after queuing the kernels. The simulator runs
# queued work only when the host waits, so the loop reads the NaN the driver put there; on a GPU
# it reads whatever the kernels have written so far. No sanitizer reports it: the answer does.
# expect: FAIL: task 4: the host read managed memory before the kernels finished
# args: --n 1;--n 1000
/if (cudaDeviceSynchronize() != cudaSuccess) return -1.0f;/d
