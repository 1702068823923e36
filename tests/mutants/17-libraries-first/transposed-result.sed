# Both operands transposed (CUBLAS_OP_T) to undo the column-major reading of A and B: the product
# is right, but cuBLAS writes C by columns, and the program reads it by rows: C^T.
# expect: task 3: C came back transposed: cuBLAS writes C in column-major order
# args: --n 17;--n 64
/cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k/,/n);/c\
  return cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_T, m, n, k, &one, d_a, k, d_b, n, &zero, d_c, m);
