/* Lesson 99 (template): scale an array, one thread per element.
 *
 * Your two tasks are marked below. Check your work with:  ./workbook check 99
 */
#include "lesson.h"

__global__ void scale_kernel(const float *in, float *out, float factor, int n) {
  // ---- task 1: one element per thread ---------------------------------------------------------
  // TODO: compute this thread's element i from blockIdx.x, blockDim.x and threadIdx.x, and set
  //       out[i] = factor * in[i], but only if i < n.
  (void)in;
  (void)out;
  (void)factor;
  (void)n;
  // ---- end of task 1 --------------------------------------------------------------------------
}

cudaError_t scale_on_device(const float *d_in, float *d_out, float factor, int n) {
  // ---- task 2: enough blocks of SCALE_BLOCK_SIZE threads --------------------------------------
  // TODO: launch scale_kernel with enough blocks of SCALE_BLOCK_SIZE threads to cover n.
  (void)d_in;
  (void)d_out;
  (void)factor;
  (void)n;
  // ---- end of task 2 --------------------------------------------------------------------------
  cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess || wb_timing()) return status;
  return cudaDeviceSynchronize();
}
