// Sum reduction with cooperative groups: the block is split into tiles of 32 threads, each tile
// reduces with shfl_down, tile totals meet in shared memory after block.sync(). A second kernel
// checks cg::reduce over tiles of 16 and the tile's meta_group_rank.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

namespace cg = cooperative_groups;

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL %s:%d: %s\\n", __FILE__, __LINE__, cudaGetErrorString(err_));                   \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

__device__ float tile_sum(cg::thread_block_tile<32> tile, float value) {
  for (int offset = tile.size() / 2; offset > 0; offset /= 2) {
    value += tile.shfl_down(value, offset);
  }
  return value; // complete in the tile's thread 0
}

__global__ void sum_kernel(const float *in, int n, float *block_totals) {
  __shared__ float tile_totals[32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);

  int i = blockIdx.x * block.size() + block.thread_rank();
  float total = tile_sum(tile, i < n ? in[i] : 0.0f);
  if (tile.thread_rank() == 0) {
    tile_totals[tile.meta_group_rank()] = total;
  }
  block.sync();
  if (tile.meta_group_rank() == 0) {
    float value =
        tile.thread_rank() < tile.meta_group_size() ? tile_totals[tile.thread_rank()] : 0.0f;
    value = tile_sum(tile, value);
    if (tile.thread_rank() == 0) {
      block_totals[blockIdx.x] = value;
    }
  }
}

// Each tile of 16 writes its sum and its rank in the block, from its last thread.
__global__ void tile16_kernel(const int *in, int *tile_sums, int *tile_ranks) {
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<16>(block);
  int value = in[blockIdx.x * blockDim.x + threadIdx.x];
  int sum = cg::reduce(tile, value, cg::plus<int>());
  int any_negative = tile.any(value < 0);
  if (tile.thread_rank() == tile.size() - 1) {
    int slot = blockIdx.x * tile.meta_group_size() + tile.meta_group_rank();
    tile_sums[slot] = any_negative ? -sum : sum;
    tile_ranks[slot] = tile.meta_group_rank();
  }
}

int main(void) {
  const int n = 200000, threads = 256;
  const int blocks = (n + threads - 1) / threads;
  float *in = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    in[i] = (float)(i % 8) * 0.5f; // sums of these are exact in float
  }
  float *d_in, *d_totals;
  CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CHECK(cudaMalloc(&d_totals, blocks * sizeof(float)));
  CHECK(cudaMemcpy(d_in, in, n * sizeof(float), cudaMemcpyHostToDevice));
  sum_kernel<<<blocks, threads>>>(d_in, n, d_totals);
  CHECK(cudaGetLastError());
  float *totals = (float *)malloc(blocks * sizeof(float));
  CHECK(cudaMemcpy(totals, d_totals, blocks * sizeof(float), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int b = 0; b < blocks; ++b) {
    float expected = 0.0f;
    for (int i = b * threads; i < n && i < (b + 1) * threads; ++i) {
      expected += in[i];
    }
    wrong += totals[b] != expected;
  }

  const int small_blocks = 4, small_threads = 128, tiles = small_blocks * small_threads / 16;
  int values[small_blocks * small_threads];
  for (int i = 0; i < small_blocks * small_threads; ++i) {
    values[i] = i / 16 == 5 ? -1 : i % 16; // tile 5 holds a negative value
  }
  int *d_values, *d_sums, *d_ranks;
  CHECK(cudaMalloc(&d_values, sizeof values));
  CHECK(cudaMalloc(&d_sums, tiles * sizeof(int)));
  CHECK(cudaMalloc(&d_ranks, tiles * sizeof(int)));
  CHECK(cudaMemcpy(d_values, values, sizeof values, cudaMemcpyHostToDevice));
  tile16_kernel<<<small_blocks, small_threads>>>(d_values, d_sums, d_ranks);
  CHECK(cudaGetLastError());
  int sums[tiles], ranks[tiles];
  CHECK(cudaMemcpy(sums, d_sums, sizeof sums, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ranks, d_ranks, sizeof ranks, cudaMemcpyDeviceToHost));
  for (int t = 0; t < tiles; ++t) {
    int expected = t == 5 ? 16 : 120; // -(16 * -1) for the negative tile, 0 + ... + 15 otherwise
    wrong += sums[t] != expected || ranks[t] != t % (small_threads / 16);
  }

  cudaFree(d_in);
  cudaFree(d_totals);
  cudaFree(d_values);
  cudaFree(d_sums);
  cudaFree(d_ranks);
  free(in);
  free(totals);
  if (wrong != 0) {
    printf("FAIL reduce_cooperative_groups: %d wrong\n", wrong);
    return 1;
  }
  printf("PASS reduce_cooperative_groups\n");
  return 0;
}
