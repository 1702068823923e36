// The profiler (runtime/profile.cpp) on canonical kernels, each with its exact expected counts.
// Usage: profile_cases CASE; prints "CASE: ok", or each count that differs, and exits 1.
//
// The expected figures follow Nsight Compute's definitions, worked out by hand below:
//   * a global request is one warp's execution of one load or store instruction; it touches
//     32-byte sectors; its ideal is the fewest sectors that hold the distinct bytes its active
//     lanes ask for (ceil(bytes / 32));
//   * a shared request takes as many wavefronts as the most distinct 4-byte words one of the 32
//     banks (word address mod 32) must deliver, at least one per 128 distinct bytes; bank
//     conflicts are the wavefronts past that ideal (lanes reading the same word: a broadcast);
//   * active lanes: lanes taking part in each request, summed; atomics: one per lane.
// cudaMalloc returns 256-byte aligned memory, so an array starts on a sector boundary.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#include <cusim_profile.h>

#include "programs/vector_kernels.cuh"

__global__ void copy(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
__global__ void copy_stride32(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 32];
}
__global__ void transpose_naive(const float *in, float *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * n + y] = in[y * n + x];
}
__global__ void tile_by_column(const float *in, float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
__global__ void tile_padded(const float *in, float *out) {
  __shared__ float tile[32][33];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
__global__ void broadcast(const float *in, float *out) {
  __shared__ float value;
  if (threadIdx.x == 0) value = in[5];
  __syncthreads();
  out[threadIdx.x] = value;
}
__global__ void odd_lanes(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 2) out[i] = in[i];
}
__global__ void misaligned(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + 1];
}
__global__ void count_up(unsigned *count) {
  atomicAdd(count, 1u);
}

struct expect {
  const char *field;
  unsigned long long want;
};

static int check(const char *name, const char *kernel, const expect *e, int n) {
  cusim_profile_counts c;
  if (!cusim_profile_end(kernel, &c)) {
    std::printf("%s: the profiler is not available\n", name);
    return 1;
  }
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    unsigned long long got = 0;
#define FIELD(f)                                                                                   \
  if (!std::strcmp(e[i].field, #f)) got = c.f;
    FIELD(launches)
    FIELD(global_load_requests)
    FIELD(global_load_sectors)
    FIELD(global_load_ideal_sectors)
    FIELD(global_store_requests)
    FIELD(global_store_sectors)
    FIELD(global_store_ideal_sectors)
    FIELD(shared_load_requests)
    FIELD(shared_load_wavefronts)
    FIELD(shared_load_ideal_wavefronts)
    FIELD(shared_store_requests)
    FIELD(shared_store_wavefronts)
    FIELD(shared_store_ideal_wavefronts)
    FIELD(bank_conflicts)
    FIELD(requests)
    FIELD(active_lanes)
    FIELD(atomics)
    FIELD(barriers)
#undef FIELD
    if (!std::strcmp(e[i].field, "occupancy_pct")) got = (unsigned long long)(c.occupancy * 100);
    if (got != e[i].want) {
      std::printf("%s: %s = %llu, want %llu\n", name, e[i].field, got, e[i].want);
      bad = 1;
    }
  }
  if (!bad) std::printf("%s: ok\n", name);
  return bad;
}
#define CHECK(name, kernel, ...)                                                                   \
  do {                                                                                             \
    const expect e[] = {__VA_ARGS__};                                                              \
    return check(name, kernel, e, (int)(sizeof e / sizeof e[0]));                                  \
  } while (0)

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: profile_cases CASE\n");
    return 2;
  }
  const char *name = argv[1];
  float *in, *out;
  unsigned *count;
  cudaMalloc(&in, 64 * 64 * 32 * sizeof(float));
  cudaMalloc(&out, 64 * 64 * sizeof(float));
  cudaMalloc(&count, sizeof(unsigned));
  cudaMemset(in, 0, 64 * 64 * 32 * sizeof(float));
  cudaMemset(count, 0, sizeof(unsigned));
  cusim_profile_begin();
  if (!std::strcmp(name, "coalesced")) {
    // 4 blocks of 256 threads: 32 warps, each one load and one store of 32 consecutive floats
    // (128 bytes, aligned): 4 sectors per request, the ideal.
    copy<<<4, 256>>>(in, out);
    CHECK(name, "copy", {"launches", 1}, {"global_load_requests", 32}, {"global_load_sectors", 128},
          {"global_load_ideal_sectors", 128}, {"global_store_requests", 32},
          {"global_store_sectors", 128}, {"global_store_ideal_sectors", 128}, {"requests", 64},
          {"active_lanes", 64 * 32}, {"bank_conflicts", 0}, {"barriers", 0},
          // 8 warps a block, 32 registers (assumed): 1,024 registers a warp, 64 warps fit in
          // 65,536; 8 blocks of 8 warps fill the 64 warp slots: 100%.
          {"occupancy_pct", 100});
  }
  if (!std::strcmp(name, "stride32")) {
    // 2 blocks of 128 threads: 8 warps. Lane l loads in[32 (w * 32 + l)]: 128 bytes apart, each
    // in a sector of its own: 32 sectors per request, 256 in all; ideal 4 per request (128
    // bytes). The stores are coalesced: 4 per request.
    copy_stride32<<<2, 128>>>(in, out);
    CHECK(name, "copy_stride32", {"global_load_requests", 8}, {"global_load_sectors", 256},
          {"global_load_ideal_sectors", 32}, {"global_store_requests", 8},
          {"global_store_sectors", 32}, {"global_store_ideal_sectors", 32});
  }
  if (!std::strcmp(name, "transpose")) {
    // A 64 x 64 matrix, blocks of 32 x 8 threads, a grid of 2 x 8: 4,096 threads, 128 warps.
    // A warp has one threadIdx.y and x running over 32 columns: it reads 32 consecutive floats
    // of a row (4 sectors), and writes out[x * 64 + y], 256 bytes apart: 32 sectors (ideal 4).
    transpose_naive<<<dim3(2, 8), dim3(32, 8)>>>(in, out, 64);
    CHECK(name, "transpose_naive", {"global_load_requests", 128}, {"global_load_sectors", 512},
          {"global_load_ideal_sectors", 512}, {"global_store_requests", 128},
          {"global_store_sectors", 4096}, {"global_store_ideal_sectors", 512});
  }
  if (!std::strcmp(name, "tile_column")) {
    // One block of 32 x 32 threads: 32 warps, warp y = threadIdx.y. Stores tile[y][x]: word
    // 32 y + x, bank x: 32 banks once each, 1 wavefront. Loads tile[x][y]: word 32 x + y, bank y
    // for every lane, 32 distinct words: 32 wavefronts (a 32-way conflict), ideal 1 (128 bytes);
    // 31 conflicts per request, 992 in all. One __syncthreads() in the one block.
    tile_by_column<<<1, dim3(32, 32)>>>(in, out);
    CHECK(name, "tile_by_column", {"shared_store_requests", 32}, {"shared_store_wavefronts", 32},
          {"shared_store_ideal_wavefronts", 32}, {"shared_load_requests", 32},
          {"shared_load_wavefronts", 1024}, {"shared_load_ideal_wavefronts", 32},
          {"bank_conflicts", 992}, {"global_load_sectors", 128}, {"global_store_sectors", 128},
          {"barriers", 1});
  }
  if (!std::strcmp(name, "tile_padded")) {
    // The same with a row of 33 floats: word 33 y + x (stores) and 33 x + y (loads) fall in bank
    // (x + y) mod 32, distinct for the 32 lanes: 1 wavefront each, no conflict.
    tile_padded<<<1, dim3(32, 32)>>>(in, out);
    CHECK(name, "tile_padded", {"shared_store_requests", 32}, {"shared_store_wavefronts", 32},
          {"shared_load_requests", 32}, {"shared_load_wavefronts", 32},
          {"shared_load_ideal_wavefronts", 32}, {"bank_conflicts", 0});
  }
  if (!std::strcmp(name, "broadcast")) {
    // 64 threads, 2 warps. Thread 0 alone loads in[5] (1 request, 1 lane, 1 sector, ideal 1)
    // and stores the shared value (1 request, 1 wavefront). Then every lane of both warps reads
    // the same word: a broadcast, 1 wavefront per request, no conflict. Stores of out: 2
    // coalesced requests of 4 sectors. Lanes: 1 + 1 + 64 + 64.
    broadcast<<<1, 64>>>(in, out);
    CHECK(name, "broadcast", {"global_load_requests", 1}, {"global_load_sectors", 1},
          {"global_load_ideal_sectors", 1}, {"shared_store_requests", 1},
          {"shared_store_wavefronts", 1}, {"shared_load_requests", 2},
          {"shared_load_wavefronts", 2}, {"shared_load_ideal_wavefronts", 2}, {"bank_conflicts", 0},
          {"global_store_requests", 2}, {"global_store_sectors", 8}, {"requests", 6},
          {"active_lanes", 130});
  }
  if (!std::strcmp(name, "odd_lanes")) {
    // 64 threads, 2 warps, only odd lanes copy: 16 lanes per request. Their floats lie at bytes
    // 4, 12, ..., 124 of each warp's 128: all 4 sectors are touched, for 64 distinct bytes
    // (ideal 2 sectors).
    odd_lanes<<<1, 64>>>(in, out);
    CHECK(name, "odd_lanes", {"global_load_requests", 2}, {"global_load_sectors", 8},
          {"global_load_ideal_sectors", 4}, {"global_store_requests", 2},
          {"global_store_sectors", 8}, {"global_store_ideal_sectors", 4}, {"requests", 4},
          {"active_lanes", 64});
  }
  if (!std::strcmp(name, "misaligned")) {
    // One warp loads in[1..32]: bytes 4 to 131, which span sectors 0 to 4: 5 sectors, ideal 4.
    misaligned<<<1, 32>>>(in, out);
    CHECK(name, "misaligned", {"global_load_requests", 1}, {"global_load_sectors", 5},
          {"global_load_ideal_sectors", 4}, {"global_store_sectors", 4});
  }
  if (!std::strcmp(name, "atomics")) {
    // 2 blocks of 64 threads, one atomicAdd each: 128 atomics in 4 warp requests.
    count_up<<<2, 64>>>(count);
    CHECK(name, "count_up", {"atomics", 128}, {"requests", 4}, {"active_lanes", 128},
          {"global_load_requests", 0}, {"global_store_requests", 0});
  }
  if (!std::strcmp(name, "transpose_small")) {
    // The picture's launch: a 16 x 16 matrix, 4 blocks of 8 x 8 threads (2 warps each, a warp
    // is 4 rows of 8 threads). A warp reads 4 row pieces of 8 floats (32 bytes, aligned): 4
    // sectors, the ideal. It writes out[x * 16 + y]: for each of its 8 x, 4 consecutive floats
    // (16 bytes) in a sector of their own: 8 sectors, ideal 4.
    transpose_naive<<<dim3(2, 2), dim3(8, 8)>>>(in, out, 16);
    CHECK(name, "transpose_naive", {"global_load_requests", 8}, {"global_load_sectors", 32},
          {"global_load_ideal_sectors", 32}, {"global_store_requests", 8},
          {"global_store_sectors", 64}, {"global_store_ideal_sectors", 32});
  }
  if (!std::strcmp(name, "window")) {
    // Only the launches after cusim_profile_begin() count, and only the kernel named.
    copy<<<1, 32>>>(in, out);
    cusim_profile_begin();
    copy<<<1, 64>>>(in, out);
    copy<<<1, 64>>>(in, out);
    misaligned<<<1, 32>>>(in, out);
    CHECK(name, "copy", {"launches", 2}, {"global_load_requests", 4}, {"global_store_sectors", 16});
  }
  // Vector accesses (programs/vector_kernels.cuh): one instruction a lane on a GPU, 16 bytes
  // (float4, int4) or 8 (float2). A warp's request covers 32 x 16 = 512 bytes: 16 sectors, and
  // its ideal is 16 too (512 / 32), not 4. gcc splits such a copy into 4-byte pieces unless told
  // not to (-fno-tree-sra in the checker's flags); split, these cases count 4 requests a warp at
  // a 16-byte stride, 16 sectors each against an ideal of 4, and fail.
  if (!std::strcmp(name, "float4_sum")) {
    // 2 blocks of 128 threads: 8 warps. Each loads 32 consecutive float4 (512 bytes, aligned):
    // 1 request of 16 sectors, ideal 16; 8 requests, 128 sectors. Each stores 32 floats: 4
    // sectors a request, 32 in all. Requests 8 + 8, lanes 16 x 32.
    sum_float4<<<2, 128>>>(in, out);
    CHECK(name, "sum_float4", {"global_load_requests", 8}, {"global_load_sectors", 128},
          {"global_load_ideal_sectors", 128}, {"global_store_requests", 8},
          {"global_store_sectors", 32}, {"global_store_ideal_sectors", 32}, {"requests", 16},
          {"active_lanes", 512});
  }
  if (!std::strcmp(name, "float4_scale")) {
    // 64 threads, 2 warps: a float4 load and a float4 store each, 16 sectors a request, ideal 16.
    scale_float4<<<1, 64>>>((const float4 *)in, (float4 *)out);
    CHECK(name, "scale_float4", {"global_load_requests", 2}, {"global_load_sectors", 32},
          {"global_load_ideal_sectors", 32}, {"global_store_requests", 2},
          {"global_store_sectors", 32}, {"global_store_ideal_sectors", 32}, {"requests", 4});
  }
  if (!std::strcmp(name, "float2_scale")) {
    // 64 threads, 2 warps: 32 x 8 = 256 bytes a request, 8 sectors, ideal 8.
    scale_float2<<<1, 64>>>(in, out);
    CHECK(name, "scale_float2", {"global_load_requests", 2}, {"global_load_sectors", 16},
          {"global_load_ideal_sectors", 16}, {"global_store_requests", 2},
          {"global_store_sectors", 16}, {"global_store_ideal_sectors", 16}, {"requests", 4});
  }
  if (!std::strcmp(name, "int4_store")) {
    // One warp stores 32 int4 made by make_int4: one request, 16 sectors, ideal 16; no loads.
    store_int4<<<1, 32>>>((int4 *)out);
    CHECK(name, "store_int4", {"global_store_requests", 1}, {"global_store_sectors", 16},
          {"global_store_ideal_sectors", 16}, {"global_load_requests", 0}, {"requests", 1},
          {"active_lanes", 32});
  }
  if (!std::strcmp(name, "float4_stride2")) {
    // One warp, lane l loads float4 number 2l: bytes 32l to 32l + 15, the first half of sector
    // l. 32 sectors for 512 bytes, ideal 16: half of each sector fetched for nothing, and still
    // reported. The stores are consecutive float4: 16 sectors, ideal 16.
    stride2_float4<<<1, 32>>>((const float4 *)in, (float4 *)out);
    CHECK(name, "stride2_float4", {"global_load_requests", 1}, {"global_load_sectors", 32},
          {"global_load_ideal_sectors", 16}, {"global_store_requests", 1},
          {"global_store_sectors", 16}, {"global_store_ideal_sectors", 16});
  }
  if (!std::strcmp(name, "float4_shared")) {
    // 64 threads, 2 warps. Shared stores tile[t] and loads tile[63 - t]: a warp's 32 float4 are
    // 512 consecutive bytes, 128 words, 4 in each bank: 4 wavefronts, and the ideal is 4 (512 /
    // 128): no conflict (split in 4-byte pieces, each piece would hit 8 banks 4 times: 4
    // wavefronts against an ideal of 1). Global: 2 loads and 2 stores of 16 sectors.
    mirror_float4<<<1, 64>>>((const float4 *)in, (float4 *)out);
    CHECK(name, "mirror_float4", {"shared_store_requests", 2}, {"shared_store_wavefronts", 8},
          {"shared_store_ideal_wavefronts", 8}, {"shared_load_requests", 2},
          {"shared_load_wavefronts", 8}, {"shared_load_ideal_wavefronts", 8}, {"bank_conflicts", 0},
          {"global_load_requests", 2}, {"global_load_sectors", 32}, {"global_store_requests", 2},
          {"global_store_sectors", 32}, {"barriers", 1});
  }
  if (!std::strcmp(name, "occupancy")) {
    // 256 threads (8 warps) with 64 registers per thread (CUSIM_PROFILE_REGS=copy=64, set by the
    // test): 2,048 registers a warp, 32 warps in 65,536: 4 blocks, 32 of 64 warps: 50%.
    copy<<<4, 256>>>(in, out);
    CHECK(name, "copy", {"occupancy_pct", 50});
  }
  std::printf("unknown case %s\n", name);
  return 2;
}
