# Task 3 makes a cuBLAS handle of its own on every call (on the given handle's stream) and never
# destroys it: each call leaks a handle, and making one costs far more than the product.
# expect: task 3: a cuBLAS handle made on line [0-9]+ is never destroyed
s|  return cublasSgemm(handle, CUBLAS_OP_N|  cublasHandle_t own;\n  cudaStream_t stream;\n  cublasCreate(\&own);\n  cublasGetStream(handle, \&stream);\n  cublasSetStream(own, stream);\n  return cublasSgemm(own, CUBLAS_OP_N|
