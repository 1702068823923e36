/* Lesson 17: libraries first.
 *
 * Before writing a kernel, look for a library that has it. The toolkit ships tuned ones: cuBLAS
 * for dense linear algebra, cuRAND for random numbers, cuFFT, cuSPARSE, and CUB and Thrust for
 * C++. Here the same matrix product three ways (a naive kernel, your tiled kernel, cublasSgemm)
 * and the same normal sample two ways (cuRAND's host API, a hand-written kernel), timed side by
 * side.
 *
 * cuBLAS follows Fortran's BLAS: matrices are stored by COLUMNS. This lesson's matrices are C
 * arrays, stored by rows. A row-major matrix read by columns is its transpose, and
 * (A B)^T = B^T A^T: asking cuBLAS for B times A, in its order, gives exactly A times B in ours.
 *
 * Your four tasks are marked below. Check your work with:  ./workbook check 17
 * (or: ctest --test-dir build -L lesson17 --output-on-failure).
 */
#include "lesson.h"

#include <curand_kernel.h>

/* The naive multiply: one thread per element of C, every operand from global memory. */
__global__ void matmul_naive_kernel(const float *__restrict__ a, const float *__restrict__ b,
                                    float *__restrict__ c, int m, int n, int k) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < m && col < n) {
    float sum = 0.0f;
    for (int i = 0; i < k; ++i) sum += a[row * k + i] * b[i * n + col];
    c[row * n + col] = sum;
  }
}

/* The tiled multiply: each block walks along a row of tiles of A and a column of tiles of B
 * through shared memory (lesson 11's kernel: yours fits here unchanged). */
__global__ void matmul_tiled_kernel(const float *__restrict__ a, const float *__restrict__ b,
                                    float *__restrict__ c, int m, int n, int k) {
  // ---- task 1: the tiled multiply -----------------------------------------------------------
  // TODO: your tiled kernel from lesson 11 (task 3) fits here unchanged; or write it again:
  //         __shared__ float a_tile[TILE][TILE];
  //         __shared__ float b_tile[TILE][TILE];
  //         int col = blockIdx.x * TILE + threadIdx.x;
  //         int row = blockIdx.y * TILE + threadIdx.y;
  //       For each tile start = 0, TILE, ... below k: load A[row][start + tx] into
  //       a_tile[ty][tx] and B[start + ty][col] into b_tile[ty][tx] (0 outside the matrices),
  //       __syncthreads(), add a_tile[ty][i] * b_tile[i][tx] for i < TILE to a sum,
  //       __syncthreads() again. Then, if row < m and col < n, c[row * n + col] = sum.
  (void)a;
  (void)b;
  (void)c;
  (void)m;
  (void)n;
  (void)k;
  // ---- end of task 1 ------------------------------------------------------------------------
}

static dim3 matmul_grid(int m, int n) {
  return dim3((unsigned)((n + TILE - 1) / TILE), (unsigned)((m + TILE - 1) / TILE));
}

cudaError_t matmul_naive(const float *d_a, const float *d_b, float *d_c, int m, int n, int k,
                         cudaStream_t stream) {
  matmul_naive_kernel<<<matmul_grid(m, n), dim3(TILE, TILE), 0, stream>>>(d_a, d_b, d_c, m, n, k);
  return cudaGetLastError();
}

cudaError_t matmul_tiled(const float *d_a, const float *d_b, float *d_c, int m, int n, int k,
                         cudaStream_t stream) {
  matmul_tiled_kernel<<<matmul_grid(m, n), dim3(TILE, TILE), 0, stream>>>(d_a, d_b, d_c, m, n, k);
  return cudaGetLastError();
}

cublasStatus_t library_handle(cublasHandle_t *handle, cudaStream_t stream) {
  // ---- task 2: a handle, and its stream -----------------------------------------------------
  // TODO: every cuBLAS call takes a handle (the library's state on this device). Make one with
  //       cublasCreate(handle), then send its work to the given stream with
  //       cublasSetStream(*handle, stream): without that, cuBLAS works on the default stream,
  //       out of order with the rest of the program's work. Return the first status that is
  //       not CUBLAS_STATUS_SUCCESS, or CUBLAS_STATUS_SUCCESS; when cublasSetStream fails,
  //       destroy the handle first (cublasDestroy), so nothing leaks.
  (void)stream;
  *handle = NULL;
  return CUBLAS_STATUS_NOT_INITIALIZED;
  // ---- end of task 2 ------------------------------------------------------------------------
}

cublasStatus_t matmul_cublas(cublasHandle_t handle, const float *d_a, const float *d_b, float *d_c,
                             int m, int n, int k) {
  const float one = 1.0f, zero = 0.0f;
  // ---- task 3: C = A B through column-major eyes -------------------------------------------
  // TODO: one call, with one and zero as alpha and beta (C = 1 * op(X) op(Y) + 0 * C):
  //         cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &one, X, ldx, Y, ldy,
  //                     &zero, d_c, ldc)
  //       computes the column-major M x N matrix X Y, X being M x K and Y K x N. cuBLAS reads
  //       our row-major arrays by columns, that is, as their transposes: it sees C^T (n x m),
  //       A^T (k x m) and B^T (n x k). And C^T = B^T A^T. So ask for an n x m product, inner
  //       size k, with B first and A second. A leading dimension is the distance between
  //       consecutive columns as cuBLAS sees them: the length of a row in our arrays.
  (void)handle;
  (void)d_a;
  (void)d_b;
  (void)d_c;
  (void)m;
  (void)n;
  (void)k;
  (void)one;
  (void)zero;
  return CUBLAS_STATUS_SUCCESS;
  // ---- end of task 3 ------------------------------------------------------------------------
}

// ---- task 4: a generator, seeded, on the stream; then the sample ------------------------------
curandStatus_t library_generator(curandGenerator_t *generator, unsigned long long seed,
                                 cudaStream_t stream) {
  // TODO: cuRAND's host API, like the cuBLAS handle of task 2: made once, kept, used many times.
  //         curandCreateGenerator(generator, CURAND_RNG_PSEUDO_PHILOX4_32_10);
  //         curandSetPseudoRandomGeneratorSeed(*generator, seed);
  //         curandSetStream(*generator, stream);
  //       Return the first status that is not CURAND_STATUS_SUCCESS; when a call after the
  //       create fails, destroy the generator first (curandDestroyGenerator), so nothing leaks.
  (void)seed;
  (void)stream;
  *generator = NULL;
  return CURAND_STATUS_NOT_INITIALIZED;
}

curandStatus_t normal_sample(curandGenerator_t generator, float *d_out, size_t count) {
  // TODO: curandGenerateNormal(generator, d_out, count, 0.0f, 1.0f) (mean, standard deviation).
  //       Normal numbers come in pairs: count is even, or cuRAND refuses it with
  //       CURAND_STATUS_LENGTH_NOT_MULTIPLE.
  (void)generator;
  (void)d_out;
  (void)count;
  return CURAND_STATUS_SUCCESS;
}
// ---- end of task 4 ----------------------------------------------------------------------------

/* The hand-written generator: a Philox state per thread, each thread makes two numbers. */
__global__ void normal_kernel_body(float *out, size_t count, unsigned long long seed) {
  size_t pair = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (2 * pair >= count) return;
  curandStatePhilox4_32_10_t state;
  curand_init(seed, pair, 0, &state);
  float2 two = curand_normal2(&state);
  out[2 * pair] = two.x;
  if (2 * pair + 1 < count) out[2 * pair + 1] = two.y;
}

cudaError_t normal_kernel(float *d_out, size_t count, unsigned long long seed,
                          cudaStream_t stream) {
  size_t pairs = (count + 1) / 2;
  unsigned blocks = (unsigned)((pairs + NORMAL_BLOCK - 1) / NORMAL_BLOCK);
  normal_kernel_body<<<blocks, NORMAL_BLOCK, 0, stream>>>(d_out, count, seed);
  return cudaGetLastError();
}
