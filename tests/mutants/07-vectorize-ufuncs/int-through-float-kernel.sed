# Task 2 reuses the float kernel for ints by casting the pointers: the bits of an int read as a
# float are another number.
# expect: FAIL: original_expression_i32_on_device is wrong \(task 2\)
# args: --n 1000
s|^UFUNC2_CUDA(original_expression_i32, int, original_expression_i32)$|cudaError_t original_expression_i32_on_device(const int *d_a, const int *d_b, int *d_out,\n                                              long long n) {\n  return original_expression_f32_on_device((const float *)d_a, (const float *)d_b,\n                                           (float *)d_out, n);\n}|
