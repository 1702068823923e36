// Sums and maxima with cooperative groups: each warp-sized tile reduces its values with
// cg::reduce, and the tile's first thread adds the result to the block's. The host has its own
// function named `reduce` (the CPU reference): a call of cg::reduce in a kernel names the
// cooperative-groups function, as C++ resolves qualified names, and never the host's. Built with
// -std=c++17. Prints one PASS or FAIL line.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

namespace cg = cooperative_groups;

#define N (1 << 16)
#define BLOCK 256

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL cg_reduce: %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__);       \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

__global__ void sum_and_max(const int *values, long long *sum, int *maximum) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  __shared__ int block_sum, block_max;
  if (block.thread_rank() == 0) {
    block_sum = 0;
    block_max = 0;
  }
  block.sync();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < N ? values[i] : 0;
  int tile_sum = cg::reduce(tile, v, cg::plus<int>());
  int tile_max = cg::reduce(tile, v, cg::greater<int>());
  if (tile.thread_rank() == 0) {
    atomicAdd(&block_sum, tile_sum);
    atomicMax(&block_max, tile_max);
  }
  block.sync();
  if (block.thread_rank() == 0) {
    atomicAdd((unsigned long long *)sum, (unsigned long long)(long long)block_sum);
    atomicMax(maximum, block_max);
  }
}

// The host's own reduce: the CPU reference.
static long long reduce(const int *values, int n, int *maximum) {
  long long sum = 0;
  *maximum = 0;
  for (int i = 0; i < n; i++) {
    sum += values[i];
    if (values[i] > *maximum) *maximum = values[i];
  }
  return sum;
}

int main(void) {
  int *values = (int *)malloc(N * sizeof(int));
  unsigned seed = 3u;
  for (int i = 0; i < N; i++) {
    seed = seed * 1664525u + 1013904223u;
    values[i] = (int)((seed >> 8) % 100000);
  }
  int *d_values, *d_max, maximum = 0, expected_max;
  long long *d_sum, sum = 0;
  CHECK(cudaMalloc((void **)&d_values, N * sizeof(int)));
  CHECK(cudaMalloc((void **)&d_sum, sizeof(long long)));
  CHECK(cudaMalloc((void **)&d_max, sizeof(int)));
  CHECK(cudaMemcpy(d_values, values, N * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_sum, 0, sizeof(long long)));
  CHECK(cudaMemset(d_max, 0, sizeof(int)));
  sum_and_max<<<(N + BLOCK - 1) / BLOCK, BLOCK>>>(d_values, d_sum, d_max);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(&sum, d_sum, sizeof sum, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&maximum, d_max, sizeof maximum, cudaMemcpyDeviceToHost));
  long long expected = reduce(values, N, &expected_max);
  int ok = sum == expected && maximum == expected_max;
  if (ok) {
    printf("PASS cg_reduce: sum %lld and maximum %d of %d values, as the host's reduce\n", sum,
           maximum, N);
  } else {
    printf("FAIL cg_reduce: sum %lld and maximum %d, the host's reduce says %lld and %d\n", sum,
           maximum, expected, expected_max);
  }
  cudaFree(d_values);
  cudaFree(d_sum);
  cudaFree(d_max);
  free(values);
  return ok ? 0 : 1;
}
