// A program written against a samples-style helper header (helper_style.cuh): guard and version
// macros, a checking macro, a kernel with __shared__ memory and its launch in the header.
#include <cuda_runtime.h>

#include "helper_style.cuh"

int main() {
  pick_device();
  const int blocks = 16, n = blocks * 256;
  float *in = NULL, *out = NULL;
  check_cuda(cudaMallocManaged((void **)&in, n * sizeof(float)));
  check_cuda(cudaMallocManaged((void **)&out, blocks * sizeof(float)));
  for (int i = 0; i < n; i++) in[i] = (float)(i % 4);
  launch_sum_squares(in, out, blocks);
  check_cuda(cudaDeviceSynchronize());
  for (int b = 0; b < blocks; b++) {
    if (out[b] != 64.0f * (0 + 1 + 4 + 9)) {
      printf("FAIL helper_style: block %d sums to %g, want %g\n", b, out[b], 64.0f * 14);
      return 1;
    }
  }
  check_cuda(cudaFree(in));
  check_cuda(cudaFree(out));
  printf("PASS helper_style\n");
  return 0;
}
