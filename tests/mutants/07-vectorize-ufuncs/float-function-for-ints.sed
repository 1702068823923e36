# Task 2 gives the int signature the float scalar function, as Numba's @vectorize does with one
# Python function for every signature: C converts each int to float and back, and a float
# holds only 24 bits, so the large results lose their last digits.
# expect: FAIL: original_expression_i32_on_device is wrong \(task 2\)
# args: --n 1000
s|^UFUNC2_CUDA(original_expression_i32, int, original_expression_i32)$|UFUNC2_CUDA(original_expression_i32, int, original_expression_f32)|
