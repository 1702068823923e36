/* Lesson 04: doubling a large array.
 *
 * One thread per element: thread i reads in[i] and writes 2 * in[i] to out[i]. The launch has a
 * fixed number of threads per block (128, as in the Python original), so the number of blocks
 * depends on n, and it is rounded UP: when n is not a multiple of 128 the last block has threads
 * with no element of their own, and they must do nothing.
 *
 * Then the same work with a grid-stride loop: each thread handles elements i, i + (threads in
 * the grid), i + 2 * (threads in the grid), ... so any number of blocks covers any n.
 *
 * Your three tasks are marked below. Check your work with:  ./workbook check 04
 * (or: ctest --test-dir build -L lesson04 --output-on-failure).
 */
#include "lesson.h"

/* One thread per element. */
__global__ void double_kernel(const double *__restrict__ in, double *__restrict__ out, int n) {
  // ---- task 1: one element per thread, and nobody past the end ------------------------------
  // TODO: compute this thread's element index i from blockIdx.x, blockDim.x and threadIdx.x, and
  //       only if i < n store 2 * in[i] in out[i]. The launch is rounded up to whole blocks, so
  //       the last block may have threads with i >= n; without the check they read and write
  //       past the end of both arrays.
  (void)in;
  (void)out;
  (void)n;
  // ---- end of task 1 ------------------------------------------------------------------------
}

cudaError_t double_elements(const double *d_in, double *d_out, int n, int threads_per_block) {
  // ---- task 2: enough blocks to cover every element ------------------------------------------
  // TODO: set blocks to n / threads_per_block rounded UP (the Python original's math.ceil), in
  // integer
  //       arithmetic: 1000 elements in blocks of 128 need 8 blocks, not 7.
  int blocks = 1;
  // ---- end of task 2 ------------------------------------------------------------------------
  double_kernel<<<blocks, threads_per_block>>>(d_in, d_out, n);
  return cudaGetLastError(); /* a bad configuration is reported here; we do not wait */
}

/* Any number of blocks: each thread strides through the array by the size of the whole grid. */
__global__ void double_grid_stride_kernel(const double *__restrict__ in, double *__restrict__ out,
                                          int n) {
  // ---- task 3: a grid-stride loop -----------------------------------------------------------
  // TODO: start i at this thread's global index (as in task 1) and, while i < n, store
  //       2 * in[i] in out[i] and advance i by the number of threads in the whole grid,
  //       blockDim.x * gridDim.x. With 1 block the loop visits every 128th element; with more
  //       blocks than elements it runs zero or one time.
  (void)in;
  (void)out;
  (void)n;
  // ---- end of task 3 ------------------------------------------------------------------------
}

cudaError_t double_elements_grid_stride(const double *d_in, double *d_out, int n, int blocks,
                                        int threads_per_block) {
  double_grid_stride_kernel<<<blocks, threads_per_block>>>(d_in, d_out, n);
  return cudaGetLastError();
}
