# Task 3 hands the kernel the host arrays a and b, as Numba's ufunc accepts NumPy arrays: a
# kernel cannot read host memory (without unified memory), so the launch is wrong on a GPU.
# expect: FAIL: add_f32_from_host made an illegal memory access \(task 3\)
# args: --n 1000
s|  if (status == cudaSuccess) status = add_f32_on_device(d_a, d_b, d_out, n);|  if (status == cudaSuccess) status = add_f32_on_device(a, b, d_out, n);|
