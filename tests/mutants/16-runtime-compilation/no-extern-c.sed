# The kernel string without extern "C": its name in the module is mangled (_Z4funcPfPKfi), so
# cuModuleGetFunction(&f, module, "func") returns CUDA_ERROR_NOT_FOUND.
# expect: FAIL: task 2: no kernel 'func' in the module \(is its name extern "C"\?\)
s|^    "extern \\"C\\" __global__ void func(|    "__global__ void func(|
