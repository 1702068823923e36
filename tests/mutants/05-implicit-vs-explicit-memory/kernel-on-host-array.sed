# Task 4 launches on the host arrays, as Numba lets a kernel take a NumPy array and copies it
# for you: CUDA C copies nothing, and the kernel gets host addresses.
# expect: FAIL: way 3: cudaErrorIllegalAddress \(task 4: device pointers\)
# args: --n 1000
s|  if ((status = add_two_launch(dev_in, dev_out, n, 0)) != cudaSuccess) return status;|  if ((status = add_two_launch(host_in, dev_out, n, 0)) != cudaSuccess) return status;|
