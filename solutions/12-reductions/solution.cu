/* Lesson 12: reductions.
 *
 * Summing an array is the simplest computation where threads must combine their results. Four
 * ways, from the slowest to the ones libraries use: every element an atomicAdd; a tree in shared
 * memory in each block; warp shuffles, which pass values between the 32 lanes of a warp without
 * memory; and cooperative groups' reduce, which does the shuffles for you. Each thread first
 * sums its own elements of a grid-stride loop in a register, so the combining is done once per
 * thread, not once per element. Then Monte Carlo pi: a reduction of hit counts.
 *
 * Your five tasks are marked below. Check your work with:  ./workbook check 12
 * (or: ctest --test-dir build -L lesson12 --output-on-failure).
 */
#include "lesson.h"

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <curand_kernel.h>

namespace cg = cooperative_groups;

#define FULL_WARP 0xffffffffu /* all 32 lanes take part in a shuffle */

/* This thread's share of a grid-stride loop, summed in registers. Reading memory at full speed
 * takes many bytes in flight per warp: a loop of one load and one add a step (nvcc does not unroll
 * it: the next load waits for nothing, but each add waits for its load, and nothing else is under
 * way) keeps 128 bytes a warp in flight, about half of what an H100's memory needs. So each step
 * makes four loads, a stride apart, into four independent sums: all four are under way at once
 * (512 bytes a warp), and each load of a warp is still 32 consecutive floats. The last few
 * (fewer than 4 strides) are added one at a time. */
__device__ float thread_sum(const float *__restrict__ in, int n) {
  int stride = blockDim.x * gridDim.x, i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum0 = 0.0f, sum1 = 0.0f, sum2 = 0.0f, sum3 = 0.0f;
  for (; i + 3 * stride < n; i += 4 * stride) {
    sum0 += in[i];
    sum1 += in[i + stride];
    sum2 += in[i + 2 * stride];
    sum3 += in[i + 3 * stride];
  }
  for (; i < n; i += stride) sum0 += in[i];
  return (sum0 + sum1) + (sum2 + sum3);
}

/* 1. Atomics only. */
__global__ void sum_atomics_kernel(const float *__restrict__ in, int n, float *total) {
  // ---- task 1: one atomicAdd per element ----------------------------------------------------
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(total, in[i]);
  // ---- end of task 1 ------------------------------------------------------------------------
}

cudaError_t sum_atomics(const float *d_in, int n, float *d_total, int blocks, int threads) {
  sum_atomics_kernel<<<blocks, threads>>>(d_in, n, d_total);
  return cudaGetLastError();
}

/* 2. A tree in shared memory, sequential addressing: at each level the upper half of the active
 * cells is added onto the lower half, so the working threads are always the first ones. */
__global__ void sum_tree_kernel(const float *__restrict__ in, int n, float *partials) {
  extern __shared__ float partial[]; /* blockDim.x floats, one per thread (set at the launch) */
  partial[threadIdx.x] = thread_sum(in, n);
  __syncthreads(); /* every thread's sum is stored */
  // ---- task 2: the tree ---------------------------------------------------------------------
  for (int active = blockDim.x; active > 1;) {
    int half = (active + 1) / 2; /* the upper part, active - half cells, folds onto the lower */
    if ((int)threadIdx.x + half < active) partial[threadIdx.x] += partial[threadIdx.x + half];
    if (active > 2 * warpSize)
      __syncthreads(); /* the next level reads other warps' sums */
    else
      __syncwarp(); /* from here on only warp 0 adds, and reads only warp 0's cells */
    active = half;
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = partial[0];
  // ---- end of task 2 ------------------------------------------------------------------------
}

cudaError_t sum_tree(const float *d_in, int n, float *d_partials, float *d_total, int blocks,
                     int threads) {
  size_t shared_bytes = (size_t)threads * sizeof(float);
  sum_tree_kernel<<<blocks, threads, shared_bytes>>>(d_in, n, d_partials);    /* one per block */
  sum_tree_kernel<<<1, threads, shared_bytes>>>(d_partials, blocks, d_total); /* their sum */
  return cudaGetLastError();
}

/* 3. Warp shuffles: after the loop lane 0 holds the sum of the warp's 32 values. */
__device__ float warp_sum(float value) {
  // ---- task 3: a warp's sum with __shfl_down_sync -------------------------------------------
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    value += __shfl_down_sync(FULL_WARP, value, offset);
  return value;
  // ---- end of task 3 ------------------------------------------------------------------------
}

__global__ void sum_shuffle_kernel(const float *__restrict__ in, int n, float *total) {
  __shared__ float warp_sums[32]; /* at most 1024 / 32 warps in a block */
  int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  float sum = warp_sum(thread_sum(in, n));
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads(); /* every warp's sum is stored */
  if (warp == 0) { /* the first warp sums the warps' sums, and adds the block's to the total */
    sum = warp_sum(lane < (int)(blockDim.x / warpSize) ? warp_sums[lane] : 0.0f);
    if (lane == 0) atomicAdd(total, sum); /* one atomic per block */
  }
}

cudaError_t sum_shuffle(const float *d_in, int n, float *d_total, int blocks, int threads) {
  sum_shuffle_kernel<<<blocks, threads>>>(d_in, n, d_total);
  return cudaGetLastError();
}

/* 4. Cooperative groups: the block split into tiles of 32 threads, each reduced by the library. */
__global__ void sum_cooperative_groups_kernel(const float *__restrict__ in, int n, float *total) {
  // ---- task 4: cg::reduce, then one atomicAdd per tile --------------------------------------
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  float sum = thread_sum(in, n);
  sum = cg::reduce(tile, sum, cg::plus<float>()); /* every lane gets the tile's sum */
  if (tile.thread_rank() == 0) atomicAdd(total, sum);
  // ---- end of task 4 ------------------------------------------------------------------------
}

cudaError_t sum_cooperative_groups(const float *d_in, int n, float *d_total, int blocks,
                                   int threads) {
  sum_cooperative_groups_kernel<<<blocks, threads>>>(d_in, n, d_total);
  return cudaGetLastError();
}

/* 5. Monte Carlo pi: each thread has its own Philox sequence (its index is the subsequence), so
 * no two threads draw the same numbers, and the result depends only on the seed and the grid. */
__global__ void pi_kernel(long long samples, unsigned long long seed, unsigned long long *hits) {
  // ---- task 5: count the points inside the quarter circle -----------------------------------
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  long long first = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  long long stride = (long long)blockDim.x * gridDim.x;
  curandStatePhilox4_32_10_t state;
  curand_init(seed, (unsigned long long)first, 0, &state);
  unsigned int inside = 0;
  for (long long i = first; i < samples; i += stride) {
    float x = curand_uniform(&state), y = curand_uniform(&state);
    inside += x * x + y * y <= 1.0f;
  }
  inside = cg::reduce(tile, inside, cg::plus<unsigned int>());
  if (tile.thread_rank() == 0) atomicAdd(hits, (unsigned long long)inside);
  // ---- end of task 5 ------------------------------------------------------------------------
}

/* At most one wave of blocks: as many as the GPU holds at once. pi_kernel's registers decide how
 * many fit on a multiprocessor (43 a thread with nvcc 13 for sm_90: 5 blocks of 256, not 8), and
 * the occupancy API computes it, so no second, partial wave runs on a few multiprocessors while
 * the others idle. */
cudaError_t count_pi_hits(long long samples, unsigned long long seed, unsigned long long *d_hits,
                          int blocks, int threads) {
  int per_multiprocessor = 0, device = 0, multiprocessors = 0;
  cudaError_t status =
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, pi_kernel, threads, 0);
  if (status == cudaSuccess) status = cudaGetDevice(&device);
  if (status == cudaSuccess)
    status = cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device);
  if (status != cudaSuccess) return status;
  int wave = per_multiprocessor * multiprocessors;
  if (wave > 0 && wave < blocks) blocks = wave;
  pi_kernel<<<blocks, threads>>>(samples, seed, d_hits);
  return cudaGetLastError();
}
