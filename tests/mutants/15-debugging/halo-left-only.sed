# Only the left halo zeroed: the right halo cell is stored only inside the signal, so when n is
# a multiple of BLOCK the last block reads window[BLOCK + 1] that nobody wrote.
# expect: read of uninitialized __shared__ memory at [a-z-]+\.cu:[0-9]+.*FAIL: smooth_kernel: cudaErrorLaunchFailure in task 3
# args: --n 256;--n 1000
s|window\[BLOCK + 1\] = right < n ? signal\[right\] : 0.0f;|if (right < n) window[BLOCK + 1] = signal[right];|
