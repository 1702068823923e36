# Task 2 guards the launch itself, as a Python function would raise ValueError: for n > 1024 it
# returns its own error and never launches, so the one CUDA would give is never seen. CUDA 13's
# answer is the same cudaErrorInvalidValue, so a GPU cannot tell; the simulator sees no launch.
# expect: FAIL: copy_one_block returned an error of its own \(task 2: ONE block of n\)
# args: --n 1000
s|  copy_kernel<<<1, n>>>(d_in, d_out, n);|  if (n > 1024) return cudaErrorInvalidValue;\n  copy_kernel<<<1, n>>>(d_in, d_out, n);|
