/* Lesson 99 (template): scale an array, one thread per element.
 *
 * Your two tasks are marked below. Check your work with:  ./workbook check 99
 */
#include "lesson.h"

__global__ void scale_kernel(const float *in, float *out, float factor, int n) {
  // ---- task 1: one element per thread ---------------------------------------------------------
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = factor * in[i];
  // ---- end of task 1 --------------------------------------------------------------------------
}

cudaError_t scale_on_device(const float *d_in, float *d_out, float factor, int n) {
  // ---- task 2: enough blocks of SCALE_BLOCK_SIZE threads --------------------------------------
  int blocks = (n + SCALE_BLOCK_SIZE - 1) / SCALE_BLOCK_SIZE;
  scale_kernel<<<blocks, SCALE_BLOCK_SIZE>>>(d_in, d_out, factor, n);
  // ---- end of task 2 --------------------------------------------------------------------------
  cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess || wb_timing()) return status;
  return cudaDeviceSynchronize();
}
