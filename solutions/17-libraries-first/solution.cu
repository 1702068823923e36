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
  __shared__ float a_tile[TILE][TILE];
  __shared__ float b_tile[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * TILE + tx;
  int row = blockIdx.y * TILE + ty;
  float sum = 0.0f;
  for (int start = 0; start < k; start += TILE) {
    a_tile[ty][tx] = row < m && start + tx < k ? a[row * k + start + tx] : 0.0f;
    b_tile[ty][tx] = start + ty < k && col < n ? b[(start + ty) * n + col] : 0.0f;
    __syncthreads(); /* both tiles are complete */
    for (int i = 0; i < TILE; ++i) sum += a_tile[ty][i] * b_tile[i][tx];
    __syncthreads(); /* nobody still reads them when the next ones are loaded */
  }
  if (row < m && col < n) c[row * n + col] = sum;
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
  cublasStatus_t status = cublasCreate(handle);
  if (status != CUBLAS_STATUS_SUCCESS) return status;
  status = cublasSetStream(*handle, stream);
  if (status != CUBLAS_STATUS_SUCCESS) cublasDestroy(*handle); /* nothing leaks */
  return status;
  // ---- end of task 2 ------------------------------------------------------------------------
}

cublasStatus_t matmul_cublas(cublasHandle_t handle, const float *d_a, const float *d_b, float *d_c,
                             int m, int n, int k) {
  const float one = 1.0f, zero = 0.0f;
  // ---- task 3: C = A B through column-major eyes -------------------------------------------
  /* Read by columns, our C (m x n, row-major) is C^T (n x m), A is A^T (k x m) and B is B^T
   * (n x k). C^T = B^T A^T: an n x m product with inner size k, B first. Each leading dimension
   * is the length of a stored row here: the number of columns. */
  return cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, d_b, n, d_a, k, &zero, d_c,
                     n);
  // ---- end of task 3 ------------------------------------------------------------------------
}

// ---- task 4: a generator, seeded, on the stream; then the sample ------------------------------
curandStatus_t library_generator(curandGenerator_t *generator, unsigned long long seed,
                                 cudaStream_t stream) {
  curandStatus_t status = curandCreateGenerator(generator, CURAND_RNG_PSEUDO_PHILOX4_32_10);
  if (status != CURAND_STATUS_SUCCESS) return status;
  status = curandSetPseudoRandomGeneratorSeed(*generator, seed);
  if (status == CURAND_STATUS_SUCCESS) status = curandSetStream(*generator, stream);
  if (status != CURAND_STATUS_SUCCESS) curandDestroyGenerator(*generator); /* nothing leaks */
  return status;
}

curandStatus_t normal_sample(curandGenerator_t generator, float *d_out, size_t count) {
  return curandGenerateNormal(generator, d_out, count, 0.0f, 1.0f);
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
