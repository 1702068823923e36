/* Lesson 07: vectorize-style ufuncs.
 *
 * Numba's @vectorize turns one scalar function into an element-wise function over whole arrays,
 * for the CPU or for CUDA. Here the scalar functions are in ufunc.h, marked __host__ __device__,
 * and a macro writes the loops around them: UFUNC2_CPU (in ufunc.h, used by reference.c) writes
 * the CPU loops, and UFUNC2_CUDA (below, yours) writes the GPU kernel and its launcher.
 *
 * Your three tasks are marked below. Check your work with:  ./workbook check 07
 * (or: ctest --test-dir build -L lesson07 --output-on-failure).
 */
#include "lesson.h"

enum { UFUNC_THREADS_PER_BLOCK = 256, UFUNC_BLOCKS_PER_SM = 8 };

/* How many blocks to launch for n elements: enough for one element per thread, but no more than
 * the GPU keeps resident at once (8 blocks of 256 threads fill an SM's 2048 thread slots). A larger
 * n is covered by the grid-stride loop, each thread taking several elements. */
int ufunc_blocks(long long n) {
  int multiprocessors = 1;
  if (cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess)
    multiprocessors = 1;
  long long wanted = (n + UFUNC_THREADS_PER_BLOCK - 1) / UFUNC_THREADS_PER_BLOCK;
  long long resident = (long long)multiprocessors * UFUNC_BLOCKS_PER_SM;
  long long blocks = wanted < resident ? wanted : resident;
  return blocks > 0 ? (int)blocks : 1;
}

// ---- task 1: a macro that writes a grid-stride kernel and its launcher ------------------------
#define UFUNC2_CUDA(NAME, TYPE, FN)                                                                \
  __global__ void NAME##_kernel(const TYPE *a, const TYPE *b, TYPE *out, long long n) {            \
    long long stride = (long long)gridDim.x * blockDim.x;                                          \
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)       \
      out[i] = FN(a[i], b[i]);                                                                     \
  }                                                                                                \
  cudaError_t NAME##_on_device(const TYPE *d_a, const TYPE *d_b, TYPE *d_out, long long n) {       \
    NAME##_kernel<<<ufunc_blocks(n), UFUNC_THREADS_PER_BLOCK>>>(d_a, d_b, d_out, n);               \
    return cudaGetLastError();                                                                     \
  }
// ---- end of task 1 ----------------------------------------------------------------------------

/* The ufuncs the driver calls: one kernel per type signature. */
// ---- task 2: one kernel per signature ---------------------------------------------------------
UFUNC2_CUDA(add_f32, float, add_f32)
UFUNC2_CUDA(original_expression_f32, float, original_expression_f32)
UFUNC2_CUDA(original_expression_i32, int, original_expression_i32)
// ---- end of task 2 ----------------------------------------------------------------------------

/* Everything the Python original's timer around vectorAdd(A, B) measured, spelled out. */
cudaError_t add_f32_from_host(const float *a, const float *b, float *out, long long n) {
  // ---- task 3: what @vectorize(target='cuda') does with host arrays --------------------------
  size_t bytes = (size_t)n * sizeof(float);
  float *d_a = NULL, *d_b = NULL, *d_out = NULL;
  cudaError_t status = cudaMalloc((void **)&d_a, bytes);
  if (status == cudaSuccess) status = cudaMalloc((void **)&d_b, bytes);
  if (status == cudaSuccess) status = cudaMalloc((void **)&d_out, bytes);
  if (status == cudaSuccess) status = cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice);
  if (status == cudaSuccess) status = cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice);
  if (status == cudaSuccess) status = add_f32_on_device(d_a, d_b, d_out, n);
  /* This copy waits for the kernel: both are on the default stream. */
  if (status == cudaSuccess) status = cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_a); /* cudaFree(NULL) does nothing, so this is safe after any failure */
  cudaFree(d_b);
  cudaFree(d_out);
  return status;
  // ---- end of task 3 ---------------------------------------------------------------------------
}
