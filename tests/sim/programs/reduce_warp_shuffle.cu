// Sum reduction with warp shuffles: each warp reduces with __shfl_down_sync, warp totals meet in
// shared memory, and the first warp reduces those. Also checks the maximum with __shfl_xor_sync
// (every lane gets the answer) and counts even values with __ballot_sync and __popc.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define FULL_MASK 0xffffffffu

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL %s:%d: %s\\n", __FILE__, __LINE__, cudaGetErrorString(err_));                   \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

__device__ int warp_sum(int value) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    value += __shfl_down_sync(FULL_MASK, value, offset);
  }
  return value;
}

__device__ int warp_max(int value) {
  for (int mask = warpSize / 2; mask > 0; mask /= 2) {
    value = max(value, __shfl_xor_sync(FULL_MASK, value, mask));
  }
  return value;
}

__global__ void reduce(const int *in, int n, int *sum, int *maximum, int *evens) {
  __shared__ int warp_totals[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int value = i < n ? in[i] : 0;
  int lane = threadIdx.x % warpSize;
  int warp = threadIdx.x / warpSize;

  int biggest = warp_max(i < n ? value : -2147483647);
  unsigned int even_lanes = __ballot_sync(FULL_MASK, i < n && value % 2 == 0);
  int total = warp_sum(value);
  if (lane == 0) {
    warp_totals[warp] = total;
    atomicMax(maximum, biggest);
    atomicAdd(evens, __popc(even_lanes));
  }
  __syncthreads();
  if (warp == 0) {
    int warps = blockDim.x / warpSize;
    total = warp_sum(lane < warps ? warp_totals[lane] : 0);
    if (lane == 0) {
      atomicAdd(sum, total);
    }
  }
}

int main(void) {
  const int n = 300000;
  int *in = (int *)malloc(n * sizeof(int));
  int expected_sum = 0, expected_max = -2147483647, expected_evens = 0;
  for (int i = 0; i < n; ++i) {
    in[i] = (int)((i * 2654435761u) % 2001u) - 1000;
    expected_sum += in[i];
    expected_max = in[i] > expected_max ? in[i] : expected_max;
    expected_evens += in[i] % 2 == 0;
  }
  int *d_in, *d_results;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_results, 3 * sizeof(int)));
  CHECK(cudaMemcpy(d_in, in, n * sizeof(int), cudaMemcpyHostToDevice));
  int start[3] = {0, -2147483647, 0};
  CHECK(cudaMemcpy(d_results, start, sizeof start, cudaMemcpyHostToDevice));

  const int threads = 512;
  reduce<<<(n + threads - 1) / threads, threads>>>(d_in, n, d_results, d_results + 1,
                                                   d_results + 2);
  CHECK(cudaGetLastError());
  int results[3];
  CHECK(cudaMemcpy(results, d_results, sizeof results, cudaMemcpyDeviceToHost));
  cudaFree(d_in);
  cudaFree(d_results);
  free(in);
  if (results[0] != expected_sum || results[1] != expected_max || results[2] != expected_evens) {
    printf("FAIL reduce_warp_shuffle: sum %d (expected %d), max %d (%d), evens %d (%d)\n",
           results[0], expected_sum, results[1], expected_max, results[2], expected_evens);
    return 1;
  }
  printf("PASS reduce_warp_shuffle\n");
  return 0;
}
