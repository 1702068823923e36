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
// Measured: on 2026-11-26 an H200 ran these kernels (nvcc 13.0, sm_90) under ncu: every global
// and shared count of the 20 cases it ran equals the simulator's (docs/results.md); the
// branch counts differ only where nvcc predicates or compiles a condition away (forms,
// predicated), and Nsight counts atomics per warp instruction, not per lane (atomics).
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
// Branch divergence. A branch is counted once per warp that executes it, and is divergent when
// the warp's active lanes do not all go the same way (Nsight Compute: smsp__sass_branch_targets
// and smsp__sass_branch_targets_threads_divergent; branch efficiency = uniform / all). Nsight
// counts SASS branch instructions; the simulator counts the conditions of the source (each if,
// while, do-while and for test). The kernels below were built with nvcc 13.0 for sm_90 and
// disassembled (cuobjdump -sass): each if or loop became a real BRA, so the counts can be set
// side by side (the SASS lines are quoted at each case below). EXIT is no branch for Nsight:
// parity_branch's two sides each end in EXIT, and it measured 4 branches, not 12.
// Which conditions the rewriter wraps (profile_cases forms): if, while, do-while and a for's
// test, in __global__, __device__ and __host__ __device__ code; an if that declares a variable
// (if (int x = f()), if (int x{f()})) is tested on the variable, and an if's init-statement is
// left out of its test (profile_cases if_init). Left alone: if constexpr, a while that declares a
// variable, a constant (while (0)), a range for, a for without a test, and constexpr functions
// (they must stay usable in constant expressions). Host code counts nothing.
__device__ constexpr int clamp_to(int v, int hi) {
  if (v > hi) return hi;
  return v;
}
template <int N> __device__ int scaled(int v) {
  if constexpr (N > 1) return v * N;
  return v;
}
__host__ __device__ int twice(int v) {
  if (v < 0) return 0;
  return 2 * v;
}
__global__ void forms(unsigned *count) {
  int t = threadIdx.x, s = 0;
  while (s < t % 2) s++;
  do {
    s++;
  } while (s < 3);
  if (int x = twice(t) - 62) atomicAdd(&count[0], (unsigned)x);
  int values[2] = {1, 2};
  for (int v : values) s += v;
  if (clamp_to(t, 40) > 100 ? true : false) s = 0;
  for (int i = 0; i < 2; i++) s += scaled<2>(i);
  for (int k = 0;; k++) {
    if (k == 1) break;
  }
  do {
    s++;
  } while (0);
  while (true) {
    if (s > 0) break;
  }
  atomicAdd(&count[1], (unsigned)s);
}
// C++17's if with an init-statement, and a declaring if (= or {} initialized), are counted on
// their test; so are an assignment through a pointer (*q = ...) and expressions with braces
// that are no declaration (cases::lane_flag{t}.on(), late bitor lane_flag{...}.on()).
namespace cases {
struct lane_flag {
  int v;
  __device__ bool on() const { return v % 3 != 0; }
};
} // namespace cases
using cases::lane_flag;
__global__ void if_init(unsigned *count) {
  int t = threadIdx.x, box = 0, *q = &box;
  bool late = t > 40;
  if (int u = t % 4; u == 0) atomicAdd(&count[0], 1u);
  if (unsigned v = t / 8) atomicAdd(&count[0], v);
  if (unsigned w{t / 16u}) atomicAdd(&count[1], w);
  if (*q = t % 2) atomicAdd(&count[1], 1u);
  if (cases::lane_flag{t}.on()) atomicAdd(&count[0], 2u);
  if (late bitor lane_flag{t + 1}.on()) atomicAdd(&count[1], 2u);
  atomicAdd(&count[1], 1u);
}
__global__ void parity_branch(const float *in, float *out, unsigned *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 2 == 0) {
    out[i] = in[i] * 2.0f;
    atomicAdd(&count[0], 1u);
  } else {
    out[i] = in[i] + 1.0f;
    atomicAdd(&count[1], 1u);
  }
}
__global__ void warp_branch(const float *in, float *out, unsigned *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x / 32 % 2 == 0) {
    out[i] = in[i] * 2.0f;
    atomicAdd(&count[0], 1u);
  } else {
    out[i] = in[i] + 1.0f;
    atomicAdd(&count[1], 1u);
  }
}
__global__ void block_branch(const float *in, float *out, unsigned *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x == 0) {
    out[i] = in[i] * 2.0f;
    atomicAdd(&count[0], 1u);
  } else {
    out[i] = in[i] + 1.0f;
    atomicAdd(&count[1], 1u);
  }
}
__global__ void lane_loop(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
#pragma unroll 1
  for (unsigned k = 0; k < threadIdx.x % 4; k++) s += in[i + k * 64];
  out[i] = s;
}
__global__ void tail_branch(const float *in, float *out, unsigned *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = in[i] * 2.0f;
    atomicAdd(&count[0], 1u);
  }
  atomicAdd(&count[1], 1u);
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
    FIELD(branches)
    FIELD(divergent_branches)
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
  cudaMalloc(&count, 2 * sizeof(unsigned));
  cudaMemset(in, 0, 64 * 64 * 32 * sizeof(float));
  cudaMemset(count, 0, 2 * sizeof(unsigned));
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
    // 2 blocks of 64 threads, one atomicAdd each: 128 atomics in 4 warp requests. Nsight
    // counts instructions, not lanes: smsp__sass_inst_executed_op_global_red.sum was 4 on an
    // H200 (nvcc made each warp's 32 adds one REDG of the warp's sum, by one lane).
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
  if (!std::strcmp(name, "parity_branch")) {
    // 2 blocks of 64 threads: 4 warps. SASS: "ISETP.NE.U32.AND P0, PT, R0, 0x1, PT; @P0 BRA
    // 0x1c0", each side ending in EXIT: one branch per warp, even lanes one way, odd the other:
    // 4 branches, 4 divergent, branch efficiency 0%.
    parity_branch<<<2, 64>>>(in, out, count);
    CHECK(name, "parity_branch", {"branches", 4}, {"divergent_branches", 4});
  }
  if (!std::strcmp(name, "warp_branch")) {
    // The same on the warp's parity (threadIdx.x / 32 % 2). SASS: "LOP3.LUT P0, RZ, R6, 0x20,
    // RZ, 0xc0, !PT; @!P0 BRA 0x1b0": one branch per warp, every lane of a warp the same way:
    // 4 branches, none divergent, efficiency 100%.
    warp_branch<<<2, 64>>>(in, out, count);
    CHECK(name, "warp_branch", {"branches", 4}, {"divergent_branches", 0});
  }
  if (!std::strcmp(name, "block_branch")) {
    // On blockIdx.x == 0, uniform in each block. SASS: "ISETP.NE.AND P0, PT, R6, RZ, PT; @!P0
    // BRA 0x1b0": 4 warps, 4 branches, none divergent.
    block_branch<<<2, 64>>>(in, out, count);
    CHECK(name, "block_branch", {"branches", 4}, {"divergent_branches", 0});
  }
  if (!std::strcmp(name, "lane_loop")) {
    // A loop of threadIdx.x % 4 trips (0 to 3; 8 lanes of each count in a warp), 2 warps. SASS:
    // a guard "LOP3.LUT P0, R0, R2, 0x3, ...; @!P0 BRA 0x170" and the loop's test at its bottom
    // "ISETP.GE.U32.AND P0, PT, R11, R0, PT; @!P0 BRA 0x100". Per warp: the guard (32 lanes, 8
    // with no trip: divergent), the test after trip 1 (24 lanes, 8 leave: divergent), after
    // trip 2 (16 lanes, 8 leave: divergent), after trip 3 (8 lanes, all leave: uniform): 4
    // branches, 3 divergent. The simulator tests the for at its top, 4 times for the lanes of
    // 3 trips: 32 lanes (8 false), 24 (8 false), 16 (8 false), 8 (all false): the same 4 and
    // 3. Two warps: 8 branches, 6 divergent, efficiency 25%.
    lane_loop<<<1, 64>>>(in, out);
    CHECK(name, "lane_loop", {"branches", 8}, {"divergent_branches", 6});
  }
  if (!std::strcmp(name, "tail_branch")) {
    // if (i < n) with n = 80, 2 blocks of 64 threads: warps of i 0-31 and 32-63 all in, 64-95
    // split (64-79 in, 80-95 out), 96-127 all out. SASS: "ISETP.GE.AND P0, PT, R9, UR4, PT;
    // @P0 BRA 0x190" (BSSY/BSYNC around it are no branches): 4 branches, 1 divergent, 75%.
    tail_branch<<<2, 64>>>(in, out, count, 80);
    CHECK(name, "tail_branch", {"branches", 4}, {"divergent_branches", 1});
  }
  if (!std::strcmp(name, "forms")) {
    // One warp. while (s < t % 2): 32 lanes, the odd ones go on (divergent); then 16, all
    // leave: 2 branches, 1 divergent. do-while (s < 3) from s = 1 (even) or 2 (odd), after
    // s++: 32 lanes all true; 32, the odd ones leave (divergent); 16, all leave: 3, 1
    // divergent. twice's if (v < 0): 1, uniform. The declaring if (int x = twice(t) - 62),
    // counted on x: 32 lanes, lane 31's x is 0 (divergent). The range for: none.
    // if (clamp_to(...) > 100 ? ...): 1, uniform (clamp_to's own if: none). The for of 2
    // trips: 3 tests. for (;;): none; its if (k == 1): 2. while (0) and while (true): none
    // (constants, which nvcc compiles away); the if in the latter: 1. In all 14 branches, 3
    // divergent; twice() called on the host before the launch adds nothing.
    // Nsight Compute on an H200 (nvcc 13.0, sm_90): 6 branches, 3 divergent. The SASS has a
    // BRA for the while (2, 1 divergent), the do-while (3, 1) and the declaring if (1, 1); the
    // other 8 conditions are compiled away: twice's if is a SEL, the clamp_to test (never
    // true) and the if (s > 0) are folded, the for of 2 trips and the for (;;) are unrolled.
    if (twice(-1) != 0) return 1;
    forms<<<1, 32>>>(count);
    CHECK(name, "forms", {"branches", 14}, {"divergent_branches", 3});
  }
  if (!std::strcmp(name, "if_init")) {
    // One warp, six ifs, each split: u == 0 after the init-statement (8 of 32 lanes true);
    // v = t / 8, 0 for lanes 0-7; w{t / 16u}, 0 for lanes 0-15 (before, the simulator's build
    // failed on it); *q = t % 2 (before, taken for a declaration and not counted); t % 3 != 0;
    // (t + 1) % 3 != 0. 6 branches, 6 divergent. SASS (nvcc 13.0, sm_90): a BRA for each,
    // "@P0 BRA", "@!P1 BRA", "@!P4 BRA", "@P1 BRA", "@!P2 BRA", "@!P3 BRA P0": Nsight would
    // count the same 6 and 6 (not measured on a GPU).
    if_init<<<1, 32>>>(count);
    CHECK(name, "if_init", {"branches", 6}, {"divergent_branches", 6});
  }
  if (!std::strcmp(name, "predicated")) {
    // Where the simulator and Nsight part: odd_lanes' if (threadIdx.x % 2) is no branch in
    // SASS. nvcc turns it into "ISETP.NE.U32.AND P0, PT, R0, 0x1, PT; @P0 EXIT" (the even
    // lanes leave), so Nsight counts 0 branches (measured on an H200: 0, 0 divergent; the
    // broadcast case's if (threadIdx.x == 0), predicated too, measured 0 against the
    // simulator's 2, 1 divergent). The simulator counts the source's condition:
    // 2 warps, 2 branches, both divergent (stricter: it names a split that costs the GPU
    // little here).
    odd_lanes<<<1, 64>>>(in, out);
    CHECK(name, "odd_lanes", {"branches", 2}, {"divergent_branches", 2});
  }
  std::printf("unknown case %s\n", name);
  return 2;
}
