# C's leading dimension m instead of n: the same when the product is square, so only the
# non-square one shows it (its rows land at the wrong places, some past the last one asked for).
# The operands are in the right order: the check says only what it knows.
# expect: FAIL: task 3: (right when square, wrong when not: which size goes where\?|cuBLAS refused the sizes)
# args: --n 17;--n 64
/cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k/,/n);/c\
  return cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, d_b, n, d_a, k, &zero, d_c, m);
