# add_f32_from_host forgets cudaFree(d_out): a leak, which the simulator counts exactly.
# expect: does not free its device memory \(task 3\)
# args: --n 1;--n 1000
/^  cudaFree(d_out);/d
