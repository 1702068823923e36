// Partitions of a warp by data: binary_partition splits a tile of 32 into the threads whose
// value is odd and those whose value is even (as NVIDIA's binaryPartitionCG sample counts odd
// and even numbers); labeled_partition splits it by value % 3. Each part reduces, scans and
// counts itself with the coalesced group's collectives.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>
#include <stdio.h>

namespace cg = cooperative_groups;

#define THREADS 64
#define FIELDS 5

__device__ int value_of(int t) {
  return (t * 7 + 3) % 11;
}

// Per thread: 0 size of its odd/even part, 1 that part's sum, 2 size of its value % 3 part,
// 3 that part's inclusive prefix sum, 4 that part's exclusive prefix sum (not compared at the
// part's rank 0, which CUDA leaves unspecified).
__global__ void partition_facts(int *facts) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int value = value_of((int)block.thread_rank());
  cg::coalesced_group parity = cg::binary_partition(warp, value & 1);
  int parity_sum = cg::reduce(parity, value, cg::plus<int>());
  cg::coalesced_group third = cg::labeled_partition(warp, value % 3);
  int *mine = facts + block.thread_rank() * FIELDS;
  mine[0] = (int)parity.size();
  mine[1] = parity_sum;
  mine[2] = (int)third.size();
  mine[3] = cg::inclusive_scan(third, value);
  mine[4] = cg::exclusive_scan(third, value);
  warp.sync();
}

static int value_on_host(int t) {
  return (t * 7 + 3) % 11;
}

int main(void) {
  int *facts;
  if (cudaMallocManaged(&facts, THREADS * FIELDS * sizeof(int)) != cudaSuccess) {
    printf("FAIL partitions: cudaMallocManaged\n");
    return 1;
  }
  partition_facts<<<1, THREADS>>>(facts);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    printf("FAIL partitions: %s\n", cudaGetErrorString(err));
    return 1;
  }
  int wrong = 0;
  for (int t = 0; t < THREADS; t++) {
    int first = t - t % 32, v = value_on_host(t);
    int want[FIELDS] = {0, 0, 0, 0, 0}, earlier = 0;
    for (int u = first; u < first + 32; u++) {
      int w = value_on_host(u);
      if ((w & 1) == (v & 1)) {
        want[0]++, want[1] += w;
      }
      if (w % 3 == v % 3) {
        want[2]++;
        if (u <= t) {
          want[3] += w;
        }
        if (u < t) {
          want[4] += w, earlier++;
        }
      }
    }
    for (int f = 0; f < FIELDS; f++) {
      if (f == 4 && earlier == 0) {
        continue;
      }
      if (facts[t * FIELDS + f] != want[f] && wrong++ < 4) {
        printf("FAIL partitions: thread %d, fact %d: %d, want %d\n", t, f, facts[t * FIELDS + f],
               want[f]);
      }
    }
  }
  cudaFree(facts);
  if (wrong == 0) {
    printf("PASS partitions: binary_partition and labeled_partition of 2 warps\n");
  }
  return wrong != 0;
}
