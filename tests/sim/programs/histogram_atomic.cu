// A histogram of bytes: each block counts into its own shared-memory histogram with shared
// atomics, then adds it to the global one with global atomics.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define BINS 256

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL %s:%d: %s\\n", __FILE__, __LINE__, cudaGetErrorString(err_));                   \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

__global__ void histogram(const unsigned char *data, int n, unsigned int *bins) {
  __shared__ unsigned int local_bins[BINS];
  for (int i = threadIdx.x; i < BINS; i += blockDim.x) {
    local_bins[i] = 0;
  }
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    atomicAdd(&local_bins[data[i]], 1u);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < BINS; i += blockDim.x) {
    if (local_bins[i] != 0) {
      atomicAdd(&bins[i], local_bins[i]);
    }
  }
}

int main(void) {
  const int n = 1000003;
  unsigned char *data = (unsigned char *)malloc(n);
  unsigned int seed = 12345u;
  for (int i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    // Skewed on purpose: low values are much more common, so many threads collide.
    data[i] = (unsigned char)((seed >> 24) & ((seed >> 8) & 1 ? 0x0f : 0xff));
  }
  unsigned char *d_data;
  unsigned int *d_bins;
  CHECK(cudaMalloc(&d_data, n));
  CHECK(cudaMalloc(&d_bins, BINS * sizeof(unsigned int)));
  CHECK(cudaMemcpy(d_data, data, n, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_bins, 0, BINS * sizeof(unsigned int)));

  histogram<<<64, 256>>>(d_data, n, d_bins);
  CHECK(cudaGetLastError());
  unsigned int bins[BINS];
  CHECK(cudaMemcpy(bins, d_bins, sizeof bins, cudaMemcpyDeviceToHost));

  unsigned int expected[BINS] = {0};
  for (int i = 0; i < n; ++i) {
    expected[data[i]]++;
  }
  int wrong = 0;
  for (int b = 0; b < BINS; ++b) {
    if (bins[b] != expected[b]) {
      ++wrong;
    }
  }
  cudaFree(d_data);
  cudaFree(d_bins);
  free(data);
  if (wrong != 0) {
    printf("FAIL histogram_atomic: %d bins wrong\n", wrong);
    return 1;
  }
  printf("PASS histogram_atomic\n");
  return 0;
}
