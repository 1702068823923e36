// Sum reduction in shared memory: each block halves its active threads at every step (sequential
// addressing), then thread 0 adds the block's total to the result with an atomic.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define THREADS 256

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL %s:%d: %s\\n", __FILE__, __LINE__, cudaGetErrorString(err_));                   \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

__global__ void block_sum(const int *in, int n, long long *total) {
  __shared__ long long partial[THREADS];
  long long mine = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    mine += in[i];
  }
  partial[threadIdx.x] = mine;
  __syncthreads();
  for (unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) {
      partial[threadIdx.x] += partial[threadIdx.x + stride];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    atomicAdd((unsigned long long *)total, (unsigned long long)partial[0]);
  }
}

int main(void) {
  const int n = 5000000;
  int *in = (int *)malloc(n * sizeof(int));
  long long expected = 0;
  for (int i = 0; i < n; ++i) {
    in[i] = (i % 1000) - 400;
    expected += in[i];
  }
  int *d_in;
  long long *d_total;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_total, sizeof(long long)));
  CHECK(cudaMemcpy(d_in, in, n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_total, 0, sizeof(long long)));

  block_sum<<<120, THREADS>>>(d_in, n, d_total);
  CHECK(cudaGetLastError());
  long long total = 0;
  CHECK(cudaMemcpy(&total, d_total, sizeof total, cudaMemcpyDeviceToHost));
  cudaFree(d_in);
  cudaFree(d_total);
  free(in);
  if (total != expected) {
    printf("FAIL reduce_shared: %lld, expected %lld\n", total, expected);
    return 1;
  }
  printf("PASS reduce_shared (%lld)\n", total);
  return 0;
}
