# Task 3 as shipped: the halo cells are stored only when they lie inside the signal, so block 0's
# left halo (and, for n a multiple of BLOCK, the last block's right one) is never written and
# holds whatever an earlier block left there. compute-sanitizer's initcheck does not see this
# (it covers global memory only); the simulator reports the read.
# expect: read of uninitialized __shared__ memory at [a-z-]+\.cu:[0-9]+.*FAIL: smooth_kernel: cudaErrorLaunchFailure in task 3
# args: --n 1;--n 1000
s|window\[0\] = left >= 0 ? signal\[left\] : 0.0f;|if (left >= 0) window[0] = signal[left];|
s|window\[BLOCK + 1\] = right < n ? signal\[right\] : 0.0f;|if (right < n) window[BLOCK + 1] = signal[right];|
