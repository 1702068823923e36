# cublasSgemm called as if it read row-major arrays (A first, row lengths as leading dimensions):
# cuBLAS reads them by columns, as A^T and B^T, and computes B A.
# expect: task 3: cuBLAS computed B x A: it reads matrices in column-major order
# args: --n 17;--n 64
/cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k/,/n);/c\
  return cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, d_a, k, d_b, n, &zero, d_c, n);
