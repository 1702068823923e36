// Cooperative-groups tiles of every size: per tile, a butterfly sum with shfl_xor, a prefix sum
// with shfl_up, ballot/any/all, broadcast with shfl, and each tile's meta_group_rank.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>
#include <stdio.h>

namespace cg = cooperative_groups;

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));                    \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

#define THREADS 96
#define FIELDS 8

// Writes, for each thread, FIELDS facts about its tile.
template <unsigned int Size> __global__ void tile_facts(int *facts) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<Size> tile = cg::tiled_partition<Size>(block);
  int rank = tile.thread_rank();
  int value = block.thread_rank() + 1;

  int sum = value;
  for (int mask = Size / 2; mask > 0; mask /= 2) {
    sum += tile.shfl_xor(sum, mask);
  }
  int prefix = cg::inclusive_scan(tile, value);
  unsigned int odd_ranks = tile.ballot(rank % 2 == 1);
  int first_value = tile.shfl(value, 0);

  int *mine = facts + (blockIdx.x * THREADS + block.thread_rank()) * FIELDS;
  mine[0] = sum;
  mine[1] = prefix;
  mine[2] = (int)odd_ranks;
  mine[3] = tile.any(value == 1);
  mine[4] = tile.all(value > 0);
  mine[5] = first_value;
  mine[6] = tile.meta_group_rank();
  mine[7] = cg::reduce(tile, value, cg::greater<int>());
  tile.sync();
}

// Expected facts for one thread, computed the plain way.
static int check(const int *facts, unsigned int size, int blocks) {
  int wrong = 0;
  for (int b = 0; b < blocks; ++b) {
    for (int t = 0; t < THREADS; ++t) {
      int first = t - t % (int)size;
      int last = first + (int)size - 1 < THREADS - 1 ? first + (int)size - 1 : THREADS - 1;
      int expected[FIELDS] = {0, 0, 0, 0, 1, first + 1, t / (int)size, last + 1};
      for (int u = first; u <= last; ++u) {
        expected[0] += u + 1;
        if (u <= t) {
          expected[1] += u + 1;
        }
        if ((u - first) % 2 == 1) {
          expected[2] |= 1 << (u - first);
        }
        expected[3] |= u == 0;
      }
      const int *got = facts + (b * THREADS + t) * FIELDS;
      for (int f = 0; f < FIELDS; ++f) {
        if (got[f] != expected[f]) {
          if (wrong < 4) {
            printf("tile %u, thread %d, fact %d: %d, expected %d\n", size, t, f, got[f],
                   expected[f]);
          }
          ++wrong;
        }
      }
    }
  }
  return wrong;
}

int main(void) {
  const int blocks = 3;
  const size_t bytes = blocks * THREADS * FIELDS * sizeof(int);
  static int facts[blocks * THREADS * FIELDS];
  int *d_facts;
  CHECK(cudaMalloc(&d_facts, bytes));
  int wrong = 0;

  tile_facts<32><<<blocks, THREADS>>>(d_facts);
  CHECK(cudaMemcpy(facts, d_facts, bytes, cudaMemcpyDeviceToHost));
  wrong += check(facts, 32, blocks);
  tile_facts<16><<<blocks, THREADS>>>(d_facts);
  CHECK(cudaMemcpy(facts, d_facts, bytes, cudaMemcpyDeviceToHost));
  wrong += check(facts, 16, blocks);
  tile_facts<8><<<blocks, THREADS>>>(d_facts);
  CHECK(cudaMemcpy(facts, d_facts, bytes, cudaMemcpyDeviceToHost));
  wrong += check(facts, 8, blocks);
  tile_facts<4><<<blocks, THREADS>>>(d_facts);
  CHECK(cudaMemcpy(facts, d_facts, bytes, cudaMemcpyDeviceToHost));
  wrong += check(facts, 4, blocks);
  tile_facts<2><<<blocks, THREADS>>>(d_facts);
  CHECK(cudaMemcpy(facts, d_facts, bytes, cudaMemcpyDeviceToHost));
  wrong += check(facts, 2, blocks);
  tile_facts<1><<<blocks, THREADS>>>(d_facts);
  CHECK(cudaMemcpy(facts, d_facts, bytes, cudaMemcpyDeviceToHost));
  wrong += check(facts, 1, blocks);
  CHECK(cudaGetLastError());
  CHECK(cudaFree(d_facts));
  if (wrong != 0) {
    printf("FAIL cooperative_groups_tiles: %d facts wrong\n", wrong);
    return 1;
  }
  printf("PASS cooperative_groups_tiles\n");
  return 0;
}
