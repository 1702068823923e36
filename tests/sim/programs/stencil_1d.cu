// A 1D stencil: each output is the sum of the inputs within RADIUS of it. Each block stages its
// slice of the input in shared memory, with RADIUS extra elements (the halo) on each side.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define RADIUS 3
#define BLOCK_SIZE 128

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));                    \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

// in has RADIUS padding elements before element 0, and enough zeros after element n - 1 that
// every block, the last one included, can read a full window.
__global__ void stencil(const int *in, int *out, int n) {
  __shared__ int window[BLOCK_SIZE + 2 * RADIUS];
  int global = blockIdx.x * blockDim.x + threadIdx.x;
  int local = threadIdx.x + RADIUS;

  window[local] = in[global + RADIUS];
  if (threadIdx.x < RADIUS) {
    window[local - RADIUS] = in[global];
    window[local + BLOCK_SIZE] = in[global + BLOCK_SIZE + RADIUS];
  }
  __syncthreads();

  if (global < n) {
    int total = 0;
    for (int offset = -RADIUS; offset <= RADIUS; ++offset) {
      total += window[local + offset];
    }
    out[global] = total;
  }
}

int main(void) {
  const int n = 100000; // a multiple of BLOCK_SIZE plus a remainder: the last block is partial
  const int padded = n + 2 * RADIUS;
  int *in = (int *)malloc(padded * sizeof(int));
  int *out = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < padded; ++i) {
    in[i] = (i * 7) % 23 - 11;
  }
  int *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, (padded + BLOCK_SIZE) * sizeof(int)));
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK(cudaMemset(d_in, 0, (padded + BLOCK_SIZE) * sizeof(int)));
  CHECK(cudaMemcpy(d_in, in, padded * sizeof(int), cudaMemcpyHostToDevice));

  stencil<<<(n + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(d_in, d_out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost));

  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    int expected = 0;
    for (int offset = -RADIUS; offset <= RADIUS; ++offset) {
      expected += in[i + RADIUS + offset];
    }
    if (out[i] != expected) {
      if (wrong < 5) {
        printf("out[%d] = %d, expected %d\n", i, out[i], expected);
      }
      ++wrong;
    }
  }
  cudaFree(d_in);
  cudaFree(d_out);
  free(in);
  free(out);
  if (wrong != 0) {
    printf("FAIL stencil_1d: %d wrong\n", wrong);
    return 1;
  }
  printf("PASS stencil_1d\n");
  return 0;
}
