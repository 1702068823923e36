// Cooperative groups beyond a warp: tiles of 64 and 128 threads made with block_tile_memory
// (what a GPU before sm_80 needs for them), their sync, shfl, any and all, cg::reduce and the scans
// over them (NVIDIA's reduction sample reduces over tiles of up to 512); and warp tiles that
// shuffle a type larger than 8 bytes (shfl_xor of a uint4, shfl of a struct).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cstdio>

namespace cg = cooperative_groups;

#define THREADS 256

struct triple {
  int a, b, c;
};

// Per thread: 0 rank, 1 meta rank, 2 meta size, 3 size, 4 broadcast of rank 5, 5 tile sum,
// 6 any(rank == 63), 7 all(value > 0), 8 reduce(plus), 9 inclusive_scan, 10 exclusive_scan (not
// compared at tile rank 0, which CUDA leaves unspecified), 11 reduce(greater) of the negated
// values.
#define FACTS 12
template <unsigned int Size> __global__ void big_tiles(int *facts) {
  __shared__ cg::block_tile_memory<THREADS> scratch;
  __shared__ int values[THREADS];
  cg::thread_block block = cg::this_thread_block(scratch);
  cg::thread_block_tile<Size> tile = cg::tiled_partition<Size>(block);
  int me = (int)block.thread_rank();
  int value = me * 3 + 1;
  values[me] = value;
  tile.sync();
  int sum = 0;
  if (tile.thread_rank() == 0)
    for (unsigned int i = 0; i < Size; i++) sum += values[me + i];
  int *f = facts + FACTS * me;
  f[0] = (int)tile.thread_rank();
  f[1] = (int)tile.meta_group_rank();
  f[2] = (int)tile.meta_group_size();
  f[3] = (int)tile.num_threads();
  f[4] = tile.shfl(value, 5);
  f[5] = tile.shfl(sum, 0);
  f[6] = tile.any(tile.thread_rank() == 63);
  f[7] = tile.all(value > 0);
  f[8] = cg::reduce(tile, value, cg::plus<int>());
  f[9] = cg::inclusive_scan(tile, value);
  f[10] = cg::exclusive_scan(tile, value, cg::plus<int>());
  f[11] = cg::reduce(tile, -value, cg::greater<int>());
}

// Butterfly sums of a uint4 over tiles of 32 and 16, and a struct passed along with shfl.
__global__ void wide_shuffles(uint4 *sums32, uint4 *sums16, triple *moved) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  cg::thread_block_tile<16> half = cg::tiled_partition<16>(block);
  unsigned int me = block.thread_rank();
  uint4 v = make_uint4(me, 2 * me, me * me, 1);
  uint4 w = v;
  for (unsigned int m = 16; m > 0; m >>= 1) {
    uint4 o = warp.shfl_xor(v, m);
    v = make_uint4(v.x + o.x, v.y + o.y, v.z + o.z, v.w + o.w);
  }
  for (unsigned int m = 8; m > 0; m >>= 1) {
    uint4 o = half.shfl_xor(w, m);
    w = make_uint4(w.x + o.x, w.y + o.y, w.z + o.z, w.w + o.w);
  }
  sums32[me] = v;
  sums16[me] = w;
  triple t = {(int)me, -(int)me, 7};
  moved[me] = warp.shfl(t, (warp.thread_rank() + 1) % 32);
}

static int check_big(const int *facts, unsigned int size) {
  for (int t = 0; t < THREADS; t++) {
    int first = t - t % (int)size, sum = 0, before = 0;
    for (int i = first; i < first + (int)size; i++) sum += i * 3 + 1;
    for (int i = first; i < t; i++) before += i * 3 + 1;
    int want[FACTS] = {t % (int)size,
                       t / (int)size,
                       THREADS / (int)size,
                       (int)size,
                       (first + 5) * 3 + 1,
                       sum,
                       1,
                       1,
                       sum,
                       before + t * 3 + 1,
                       before,
                       -(first * 3 + 1)};
    for (int k = 0; k < FACTS; k++) {
      if (k == 10 && t == first) continue;
      if (facts[FACTS * t + k] != want[k]) {
        printf("FAIL cooperative_groups_large_tiles: tile %u, thread %d, fact %d: %d, want %d\n",
               size, t, k, facts[FACTS * t + k], want[k]);
        return 1;
      }
    }
  }
  return 0;
}

static unsigned int tile_sum(unsigned int t, unsigned int size, int field) {
  unsigned int first = t - t % size, sum = 0;
  for (unsigned int i = first; i < first + size; i++)
    sum += field == 0 ? i : field == 1 ? 2 * i : field == 2 ? i * i : 1;
  return sum;
}

int main() {
  int *facts = NULL;
  uint4 *sums32 = NULL, *sums16 = NULL;
  triple *moved = NULL;
  cudaMallocManaged((void **)&facts, FACTS * THREADS * sizeof(int));
  cudaMallocManaged((void **)&sums32, THREADS * sizeof(uint4));
  cudaMallocManaged((void **)&sums16, THREADS * sizeof(uint4));
  cudaMallocManaged((void **)&moved, THREADS * sizeof(triple));
  int failed = 0;
  big_tiles<64><<<1, THREADS>>>(facts);
  if (cudaDeviceSynchronize() != cudaSuccess || check_big(facts, 64)) failed = 1;
  big_tiles<128><<<1, THREADS>>>(facts);
  if (cudaDeviceSynchronize() != cudaSuccess || check_big(facts, 128)) failed = 1;
  wide_shuffles<<<1, THREADS>>>(sums32, sums16, moved);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("FAIL cooperative_groups_large_tiles: %s\n", cudaGetErrorString(e));
    return 1;
  }
  for (unsigned int t = 0; t < THREADS && !failed; t++) {
    unsigned int got32[4] = {sums32[t].x, sums32[t].y, sums32[t].z, sums32[t].w};
    unsigned int got16[4] = {sums16[t].x, sums16[t].y, sums16[t].z, sums16[t].w};
    for (int k = 0; k < 4; k++) {
      if (got32[k] != tile_sum(t, 32, k) || got16[k] != tile_sum(t, 16, k)) {
        printf("FAIL cooperative_groups_large_tiles: uint4 sum, thread %u, field %d\n", t, k);
        failed = 1;
        break;
      }
    }
    unsigned int from = t - t % 32 + (t % 32 + 1) % 32;
    if (moved[t].a != (int)from || moved[t].b != -(int)from || moved[t].c != 7) {
      printf("FAIL cooperative_groups_large_tiles: struct shfl, thread %u got %d\n", t, moved[t].a);
      failed = 1;
    }
  }
  cudaFree(facts);
  cudaFree(sums32);
  cudaFree(sums16);
  cudaFree(moved);
  if (failed) return 1;
  printf("PASS cooperative_groups_large_tiles\n");
  return 0;
}
