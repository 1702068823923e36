// The simulator's cuBLAS (runtime/cublas.cpp) against plain C references: each case prints what
// it saw, and tests/sim/CMakeLists.txt requires it.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CUDA(call)                                                                                 \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      printf("FAIL line %d: %s -> %s\n", __LINE__, #call, cudaGetErrorName(e_));                   \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)
#define BLAS(call)                                                                                 \
  do {                                                                                             \
    cublasStatus_t s_ = (call);                                                                    \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                                             \
      printf("FAIL line %d: %s -> %s\n", __LINE__, #call, cublasGetStatusName(s_));                \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

static double value(int i, int salt) {
  return (double)((i * 37 + salt * 11) % 23) / 8.0 - 1.25;
}

// Element (r, c) of op(X), X column-major with leading dimension ld.
static double at(const double *x, int ld, int transposed, int r, int c) {
  return transposed ? x[c + (size_t)r * ld] : x[r + (size_t)c * ld];
}

// C = alpha op(A) op(B) + beta C, column-major, in double: the reference for both precisions.
static void gemm_reference(int ta, int tb, int m, int n, int k, double alpha, const double *a,
                           int lda, const double *b, int ldb, double beta, double *c, int ldc) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double sum = 0;
      for (int p = 0; p < k; ++p) sum += at(a, lda, ta, i, p) * at(b, ldb, tb, p, j);
      c[i + (size_t)j * ldc] = alpha * sum + beta * c[i + (size_t)j * ldc];
    }
}

// Every transpose combination, odd sizes, leading dimensions larger than the rows.
static int gemm(void) {
  cublasHandle_t h;
  BLAS(cublasCreate(&h));
  int m = 37, n = 29, k = 41, worst_s = 0, worst_d = 0;
  for (int ta = 0; ta < 2; ++ta)
    for (int tb = 0; tb < 2; ++tb) {
      int a_rows = ta ? k : m, a_cols = ta ? m : k, b_rows = tb ? n : k, b_cols = tb ? k : n;
      int lda = a_rows + 3, ldb = b_rows + 1, ldc = m + 2;
      size_t a_n = (size_t)lda * a_cols, b_n = (size_t)ldb * b_cols, c_n = (size_t)ldc * n;
      double *a = (double *)malloc(a_n * 8), *b = (double *)malloc(b_n * 8);
      double *c = (double *)malloc(c_n * 8), *cd = (double *)malloc(c_n * 8);
      float *af = (float *)malloc(a_n * 4), *bf = (float *)malloc(b_n * 4);
      float *cf = (float *)malloc(c_n * 4);
      for (size_t i = 0; i < a_n; ++i) af[i] = (float)(a[i] = value((int)i, 1));
      for (size_t i = 0; i < b_n; ++i) bf[i] = (float)(b[i] = value((int)i, 2));
      for (size_t i = 0; i < c_n; ++i) cf[i] = (float)(c[i] = value((int)i, 3));
      double alpha = 1.5, beta = -0.5;
      float *d_a, *d_b, *d_c;
      double *dd_a, *dd_b, *dd_c;
      CUDA(cudaMalloc(&d_a, a_n * 4));
      CUDA(cudaMalloc(&d_b, b_n * 4));
      CUDA(cudaMalloc(&d_c, c_n * 4));
      CUDA(cudaMalloc(&dd_a, a_n * 8));
      CUDA(cudaMalloc(&dd_b, b_n * 8));
      CUDA(cudaMalloc(&dd_c, c_n * 8));
      CUDA(cudaMemcpy(d_a, af, a_n * 4, cudaMemcpyHostToDevice));
      CUDA(cudaMemcpy(d_b, bf, b_n * 4, cudaMemcpyHostToDevice));
      CUDA(cudaMemcpy(d_c, cf, c_n * 4, cudaMemcpyHostToDevice));
      CUDA(cudaMemcpy(dd_a, a, a_n * 8, cudaMemcpyHostToDevice));
      CUDA(cudaMemcpy(dd_b, b, b_n * 8, cudaMemcpyHostToDevice));
      CUDA(cudaMemcpy(dd_c, c, c_n * 8, cudaMemcpyHostToDevice));
      float alpha_f = (float)alpha, beta_f = (float)beta;
      cublasOperation_t opa = ta ? CUBLAS_OP_T : CUBLAS_OP_N, opb = tb ? CUBLAS_OP_T : CUBLAS_OP_N;
      BLAS(cublasSgemm(h, opa, opb, m, n, k, &alpha_f, d_a, lda, d_b, ldb, &beta_f, d_c, ldc));
      BLAS(cublasDgemm(h, opa, opb, m, n, k, &alpha, dd_a, lda, dd_b, ldb, &beta, dd_c, ldc));
      CUDA(cudaMemcpy(cf, d_c, c_n * 4, cudaMemcpyDeviceToHost));
      CUDA(cudaMemcpy(cd, dd_c, c_n * 8, cudaMemcpyDeviceToHost));
      gemm_reference(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
      int wrong_s = 0, wrong_d = 0;
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
          size_t x = i + (size_t)j * ldc;
          wrong_s += fabs(cf[x] - c[x]) > 1e-4 * (1 + fabs(c[x]));
          wrong_d += fabs(cd[x] - c[x]) > 1e-12 * (1 + fabs(c[x]));
        }
      // The rows between m and ldc are padding: untouched.
      for (int j = 0; j < n; ++j)
        wrong_s += cf[m + (size_t)j * ldc] != (float)value(m + j * ldc, 3);
      printf("gemm %c%c: %d float and %d double elements wrong\n", ta ? 'T' : 'N', tb ? 'T' : 'N',
             wrong_s, wrong_d);
      worst_s += wrong_s;
      worst_d += wrong_d;
      CUDA(cudaFree(d_a));
      CUDA(cudaFree(d_b));
      CUDA(cudaFree(d_c));
      CUDA(cudaFree(dd_a));
      CUDA(cudaFree(dd_b));
      CUDA(cudaFree(dd_c));
      free(a);
      free(b);
      free(c);
      free(cd);
      free(af);
      free(bf);
      free(cf);
    }
  BLAS(cublasDestroy(h));
  return worst_s || worst_d;
}

// axpy, scal, dot, nrm2, asum, gemv, copy; strided vectors.
static int level1(void) {
  cublasHandle_t h;
  BLAS(cublasCreate(&h));
  int n = 1001;
  float *x = (float *)malloc(n * 4), *y = (float *)malloc(n * 4), *got = (float *)malloc(n * 4);
  for (int i = 0; i < n; ++i) {
    x[i] = (float)value(i, 4);
    y[i] = (float)value(i, 5);
  }
  float *d_x, *d_y;
  CUDA(cudaMalloc(&d_x, n * 4));
  CUDA(cudaMalloc(&d_y, n * 4));
  BLAS(cublasSetVector(n, 4, x, 1, d_x, 1));
  BLAS(cublasSetVector(n, 4, y, 1, d_y, 1));
  double dot = 0, nrm = 0, asum = 0;
  for (int i = 0; i < n; ++i) {
    dot += (double)x[i] * y[i];
    nrm += (double)x[i] * x[i];
    asum += fabs(x[i]);
  }
  float r_dot, r_nrm, r_asum;
  BLAS(cublasSdot(h, n, d_x, 1, d_y, 1, &r_dot));
  BLAS(cublasSnrm2(h, n, d_x, 1, &r_nrm));
  BLAS(cublasSasum(h, n, d_x, 1, &r_asum));
  printf("dot %s, nrm2 %s, asum %s\n", fabs(r_dot - dot) < 1e-3 ? "right" : "WRONG",
         fabs(r_nrm - sqrt(nrm)) < 1e-3 ? "right" : "WRONG",
         fabs(r_asum - asum) < 1e-2 ? "right" : "WRONG");
  float alpha = 2.5f;
  BLAS(cublasSaxpy(h, n, &alpha, d_x, 1, d_y, 1)); // y += 2.5 x
  float half = 0.5f;
  BLAS(cublasSscal(h, (n + 1) / 2, &half, d_y, 2)); // every other element halved
  BLAS(cublasGetVector(n, 4, d_y, 1, got, 1));
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    float want = y[i] + alpha * x[i];
    if (i % 2 == 0) want *= 0.5f;
    wrong += fabsf(got[i] - want) > 1e-5f * (1 + fabsf(want));
  }
  printf("axpy and strided scal: %d wrong\n", wrong);
  // gemv: y = A^T x for a 3 x 2 A, by hand.
  float a[6] = {1, 2, 3, 4, 5, 6}, v[3] = {1, 1, 2}, r[2];
  float *d_a, *d_v, *d_r;
  CUDA(cudaMalloc(&d_a, sizeof a));
  CUDA(cudaMalloc(&d_v, sizeof v));
  CUDA(cudaMalloc(&d_r, sizeof r));
  BLAS(cublasSetMatrix(3, 2, 4, a, 3, d_a, 3));
  CUDA(cudaMemcpy(d_v, v, sizeof v, cudaMemcpyHostToDevice));
  float one = 1, zero = 0;
  BLAS(cublasSgemv(h, CUBLAS_OP_T, 3, 2, &one, d_a, 3, d_v, 1, &zero, d_r, 1));
  CUDA(cudaMemcpy(r, d_r, sizeof r, cudaMemcpyDeviceToHost));
  printf("gemv T: %g %g (want 9 21)\n", r[0], r[1]);
  CUDA(cudaFree(d_a));
  CUDA(cudaFree(d_v));
  CUDA(cudaFree(d_r));
  CUDA(cudaFree(d_x));
  CUDA(cudaFree(d_y));
  BLAS(cublasDestroy(h));
  free(x);
  free(y);
  free(got);
  return wrong != 0;
}

// The handle's stream orders the call: on a stream nobody waited for it has not run; after
// the wait it has. Device pointer mode: the scalar and the result live in device memory.
static int streams(void) {
  cublasHandle_t h;
  BLAS(cublasCreate(&h));
  cudaStream_t s;
  CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  BLAS(cublasSetStream(h, s));
  cudaStream_t back;
  BLAS(cublasGetStream(h, &back));
  printf("cublasGetStream gives the stream set: %s\n", back == s ? "yes" : "no");
  int n = 256;
  float *ones = (float *)malloc(n * 4);
  for (int i = 0; i < n; ++i) ones[i] = 1;
  float *d_x, *d_y, *d_scalars;
  CUDA(cudaMalloc(&d_x, n * 4));
  CUDA(cudaMalloc(&d_y, n * 4));
  CUDA(cudaMalloc(&d_scalars, 2 * 4));
  CUDA(cudaMemcpy(d_x, ones, n * 4, cudaMemcpyHostToDevice));
  CUDA(cudaMemset(d_y, 0, n * 4));
  float three = 3;
  CUDA(cudaMemcpy(d_scalars, &three, 4, cudaMemcpyHostToDevice));
  BLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
  BLAS(cublasSaxpy(h, n, d_scalars, d_x, 1, d_y, 1));    // y = 3 x
  BLAS(cublasSdot(h, n, d_x, 1, d_y, 1, d_scalars + 1)); // 3 n, in device memory
  float host_view = -1;
  CUDA(cudaMemcpyAsync(&host_view, d_scalars + 1, 4, cudaMemcpyDeviceToHost, s));
  printf("before the stream is waited for: %g\n", host_view);
  CUDA(cudaStreamSynchronize(s));
  printf("after: %g (want %d)\n", host_view, 3 * n);
  CUDA(cudaFree(d_x));
  CUDA(cudaFree(d_y));
  CUDA(cudaFree(d_scalars));
  CUDA(cudaStreamDestroy(s));
  BLAS(cublasDestroy(h));
  free(ones);
  return 0;
}

// What cuBLAS refuses (INVALID_VALUE), and what the simulator refuses where a GPU would fault.
static int errors(void) {
  cublasHandle_t h;
  BLAS(cublasCreate(&h));
  float *d;
  CUDA(cudaMalloc(&d, 16 * 16 * 4));
  float host[256] = {0}, one = 1, zero = 0;
  printf("lda < m -> %s\n", cublasGetStatusName(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16,
                                                            &one, d, 8, d, 16, &zero, d, 16)));
  printf("negative n -> %s\n",
         cublasGetStatusName(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 16, -1, 16, &one, d, 16, d,
                                         16, &zero, d, 16)));
  printf("host matrix -> %s\n",
         cublasGetStatusName(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, &one, host, 16, d,
                                         16, &zero, d, 16)));
  printf("past the end -> %s\n",
         cublasGetStatusName(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, &one, d, 32, d,
                                         16, &zero, d, 16)));
  CUDA(cudaFree(d));
  BLAS(cublasDestroy(h));
  printf("destroyed handle -> %s\n", cublasGetStatusName(cublasSetStream(h, 0)));
  return 0;
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "";
  if (!strcmp(which, "gemm")) return gemm();
  if (!strcmp(which, "level1")) return level1();
  if (!strcmp(which, "streams")) return streams();
  if (!strcmp(which, "errors")) return errors();
  printf("usage: sim_cublas_cases gemm|level1|streams|errors\n");
  return 2;
}
