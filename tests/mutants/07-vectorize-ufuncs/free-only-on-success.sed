# add_f32_from_host returns as soon as a step fails: the device arrays it allocated are never
# freed. The driver makes the copy back fail (into NULL) and counts what is left.
# expect: FAIL: add_f32_from_host does not free after an error \(task 3\)
# args: --n 1;--n 1000
s|^  cudaFree(d_a); /\*|  if (status != cudaSuccess) return status;\n  cudaFree(d_a); /*|
