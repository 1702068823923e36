// The harness's profiler API (wb_profile_*, shared/harness/wb.h), as lesson drivers use it: a
// coalesced copy is at the ideal, a strided one is not, a padded tile has no bank conflicts, and
// a tiled multiply reads global memory TILE times less than a naive one, and a uniform loop has
// no divergent branch. Usage:
// profile_harness; prints "harness profile: ok" or what differs. With CUSIM_MEMCHECK=0 the
// counts are unavailable and it prints the reason.
#include <stdio.h>

#include "wb.h"

#define TILE 16

__global__ void copy(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
__global__ void copy_strided(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[(i * 32) % 4096];
}
__global__ void tile_padded(const float *in, float *out) {
  __shared__ float tile[32][33];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
// c = a b for n x n matrices, one thread per element of c.
__global__ void multiply_naive(const float *a, const float *b, float *c, int n) {
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0;
  for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
  c[row * n + col] = sum;
}
__global__ void multiply_tiled(const float *a, const float *b, float *c, int n) {
  __shared__ float ta[TILE][TILE];
  __shared__ float tb[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0;
  for (int t = 0; t < n; t += TILE) {
    ta[threadIdx.y][threadIdx.x] = a[row * n + t + threadIdx.x];
    tb[threadIdx.y][threadIdx.x] = b[(t + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = sum;
}

static int failures = 0;
static void expect(int ok, const char *what) {
  if (!ok) {
    printf("harness profile: %s\n", what);
    failures++;
  }
}

int main(void) {
  const int n = 64;
  float *in, *out, *c;
  cudaMalloc((void **)&in, 4096 * sizeof(float));
  cudaMalloc((void **)&out, 4096 * sizeof(float));
  cudaMalloc((void **)&c, 4096 * sizeof(float));
  cudaMemset(in, 0, 4096 * sizeof(float));
  wb_profile p;

  wb_profile_start();
  copy<<<4, 256>>>(in, out);
  if (!wb_profile_stop("copy", &p)) {
    printf("harness profile: not available: %s\n", wb_profile_unavailable());
    return 1;
  }
  expect(wb_profile_unavailable()[0] == 0, "available, yet a reason is given");
  expect(p.launches == 1 && p.global_load_requests == 32, "copy: 1 launch, 32 load requests");
  expect(p.global_load_sectors == p.global_load_ideal_sectors, "copy: loads not at the ideal");
  expect(p.global_store_sectors == p.global_store_ideal_sectors, "copy: stores not at the ideal");
  expect(p.active_lanes == 32.0 && p.occupancy == 1.0, "copy: 32 lanes, 100% occupancy");

  wb_profile_start();
  copy_strided<<<4, 256>>>(in, out);
  wb_profile_stop("copy_strided", &p);
  expect(p.global_load_sectors == 8 * p.global_load_ideal_sectors,
         "strided: loads take 8 times the ideal sectors (32 against 4)");

  wb_profile_start();
  tile_padded<<<1, dim3(32, 32)>>>(in, out);
  wb_profile_stop(NULL, &p);
  expect(p.shared_requests == 64 && p.bank_conflicts == 0, "padded tile: 64 requests, no conflict");
  expect(p.barriers == 1, "padded tile: one __syncthreads()");

  // Global loads of the two multiplies: per k, a naive warp (two rows of 16 threads) makes one
  // request for a and one for b; a tiled warp makes those two requests once per TILE values of k:
  // TILE times fewer requests. In sectors the gain is TILE / 2 here: a naive request for a
  // touches 2 sectors (two rows, each a broadcast of one float), for b 2 (16 floats); a tiled
  // request touches 4 (two rows of 16 floats, a and b alike): 64 x 4 = 256 sectors a warp
  // against 4 tiles x 8 = 32.
  wb_profile p_naive, p_tiled;
  dim3 grid(n / TILE, n / TILE), block(TILE, TILE);
  wb_profile_start();
  multiply_naive<<<grid, block>>>(in, out, c, n);
  multiply_tiled<<<grid, block>>>(in, out, c, n);
  wb_profile_stop("multiply_naive", &p_naive);
  wb_profile_stop("multiply_tiled", &p_tiled);
  expect(p_naive.launches == 1 && p_tiled.launches == 1, "multiplies: one launch each");
  expect(p_naive.global_load_requests == TILE * p_tiled.global_load_requests,
         "multiplies: the tiled one makes TILE times fewer load requests");
  expect(p_naive.global_load_sectors == TILE / 2 * p_tiled.global_load_sectors,
         "multiplies: the tiled one reads TILE / 2 times fewer sectors");
  expect(p_tiled.global_store_sectors == p_naive.global_store_sectors, "multiplies: same stores");
  // The naive loop's test, once per warp and k (64 trips and the exit), the same in every lane:
  // 16 blocks of 8 warps, 65 branches each, none divergent.
  expect(p_naive.branches == 16 * 8 * 65 && p_naive.divergent_branches == 0,
         "naive multiply: 8,320 branches, none divergent");

  if (failures) return 1;
  printf("harness profile: ok\n");
  return 0;
}
