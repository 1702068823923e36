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
// TODO: make UFUNC2_CUDA(NAME, TYPE, FN) write two functions, as UFUNC2_CPU in ufunc.h writes
//       its loops: a kernel NAME##_kernel whose threads cover all n elements with a grid-stride
//       loop doing out[i] = FN(a[i], b[i]), and NAME##_on_device, which launches it with
//       ufunc_blocks(n) blocks of UFUNC_THREADS_PER_BLOCK threads and returns cudaGetLastError().
#define UFUNC2_CUDA(NAME, TYPE, FN)                                                                \
  __global__ void NAME##_kernel(const TYPE *a, const TYPE *b, TYPE *out, long long n) {            \
    (void)a, (void)b, (void)out, (void)n;                                                          \
  }                                                                                                \
  cudaError_t NAME##_on_device(const TYPE *d_a, const TYPE *d_b, TYPE *d_out, long long n) {       \
    (void)d_a, (void)d_b, (void)d_out, (void)n;                                                    \
    return cudaSuccess;                                                                            \
  }
// ---- end of task 1 ----------------------------------------------------------------------------

/* The ufuncs the driver calls: one kernel per type signature. */
// ---- task 2: one kernel per signature ---------------------------------------------------------
// TODO: replace these three stand-ins by three lines that use UFUNC2_CUDA: add_f32 and
//       original_expression_f32 on float, original_expression_i32 on int (the names the driver
//       calls are in lesson.h). A kernel is compiled for one type; a second type needs a second
//       kernel.
cudaError_t add_f32_on_device(const float *d_a, const float *d_b, float *d_out, long long n) {
  (void)d_a, (void)d_b, (void)d_out, (void)n;
  return cudaSuccess;
}
cudaError_t original_expression_f32_on_device(const float *d_a, const float *d_b, float *d_out,
                                              long long n) {
  (void)d_a, (void)d_b, (void)d_out, (void)n;
  return cudaSuccess;
}
cudaError_t original_expression_i32_on_device(const int *d_a, const int *d_b, int *d_out,
                                              long long n) {
  (void)d_a, (void)d_b, (void)d_out, (void)n;
  return cudaSuccess;
}
// ---- end of task 2 ----------------------------------------------------------------------------

/* Everything the Python original's timer around vectorAdd(A, B) measured, spelled out. */
cudaError_t add_f32_from_host(const float *a, const float *b, float *out, long long n) {
  // ---- task 3: what @vectorize(target='cuda') does with host arrays --------------------------
  // TODO: allocate three device arrays of n floats, copy a and b to the device, run
  //       add_f32_on_device, copy the result back into out, and free the three arrays. Return the
  //       first error (or cudaSuccess). Free the memory even when a step fails.
  (void)a, (void)b, (void)out, (void)n;
  return cudaSuccess;
  // ---- end of task 3 ---------------------------------------------------------------------------
}
