# beta = 1 instead of 0: cuBLAS adds C's old contents to the product. The driver fills C with NaN
# first, so C comes back all NaN. The operands are in the right order: no word of swapping them.
# expect: FAIL: task 3: C is all NaN, its old contents: beta must be 0
# args: --n 17;--n 64
/cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k/,/n);/c\
  (void)zero;\
  return cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, d_b, n, d_a, k, &one, d_c, n);
