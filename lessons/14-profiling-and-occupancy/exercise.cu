/* Lesson 14: profiling and occupancy.
 *
 * A multiprocessor (SM) runs many blocks at once, as many as its threads, registers and shared
 * memory allow. The fraction of its warp slots those blocks fill is the occupancy: the more
 * warps it holds, the more it has to switch to while others wait for memory. You compute it by
 * hand (task 1), let the runtime choose a block size that maximizes it (task 2), and write a
 * grid-stride kernel whose profile is at the ideal (task 3).
 *
 * Your three tasks are marked below. Check your work with:  ./workbook check 14
 * (or: ctest --test-dir build -L lesson14 --output-on-failure).
 */
#include "lesson.h"

int blocks_per_sm(const sm_limits *sm, int threads, int shared_bytes, int registers) {
  // ---- task 1: theoretical occupancy by hand ------------------------------------------------
  // TODO: return how many blocks of `threads` one SM holds: the fewest allowed by
  //       - blocks: sm->max_blocks_per_sm;
  //       - warps: a block takes whole warps, (threads + warp_size - 1) / warp_size of them,
  //         and the SM has max_threads_per_sm / warp_size warp slots;
  //       - registers: a warp takes registers * warp_size, rounded up to a multiple of
  //         register_unit; the SM has registers_per_sm;
  //       - shared memory: a block takes shared_bytes rounded up to a multiple of
  //         shared_unit, plus shared_reserved; the SM has shared_per_sm.
  //       Return 0 for threads <= 0 or shared_bytes > shared_per_block.
  (void)sm;
  (void)threads;
  (void)shared_bytes;
  (void)registers;
  return 0;
  // ---- end of task 1 ------------------------------------------------------------------------
}

/* The probe kernel: uses its dynamic shared memory, and few registers. */
__global__ void probe_kernel(float *out) {
  extern __shared__ float scratch[];
  scratch[threadIdx.x] = (float)threadIdx.x;
  out[threadIdx.x] = scratch[threadIdx.x];
}

cudaError_t probe_occupancy(int threads, int shared_bytes, int *blocks) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, probe_kernel, threads,
                                                       (size_t)shared_bytes);
}

int probe_registers(void) {
  cudaFuncAttributes attributes;
  if (cudaFuncGetAttributes(&attributes, probe_kernel) != cudaSuccess) return -1;
  return attributes.numRegs;
}

/* y = a * x + y, grid-stride: thread t of the grid handles t, t + all threads, ... */
__global__ void saxpy_kernel(float a, const float *__restrict__ x, float *__restrict__ y, int n) {
  // ---- task 3: a grid-stride loop at the ideal ----------------------------------------------
  // TODO: a grid-stride loop (lesson 07): start at this thread's place in the grid,
  //       blockIdx.x * blockDim.x + threadIdx.x, step by every thread of the grid,
  //       gridDim.x * blockDim.x, and do y[i] = a * x[i] + y[i] while i < n. Neighbouring
  //       lanes must touch neighbouring floats (the profiler checks it).
  (void)a;
  (void)x;
  (void)y;
  (void)n;
  // ---- end of task 3 ------------------------------------------------------------------------
}

/* The runtime's blocks per SM for saxpy_kernel in blocks of `threads` (check 2 uses it). */
cudaError_t saxpy_occupancy(int threads, int *blocks) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, saxpy_kernel, threads, 0);
}

cudaError_t saxpy(float a, const float *d_x, float *d_y, int n, launch_shape *shape) {
  // ---- task 2: the block size that maximizes occupancy --------------------------------------
  // TODO: ask the runtime for the block size with the highest occupancy:
  //         int min_grid = 0, block = 0;
  //         cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, saxpy_kernel, 0, 0);
  //       (check its status). min_grid is the grid that fills every SM once. Launch
  //       saxpy_kernel<<<grid, block>>> with grid the smaller of min_grid and the blocks n
  //       needs, and record both in *shape.
  (void)a;
  (void)d_x;
  (void)d_y;
  (void)n;
  (void)shape;
  // ---- end of task 2 ------------------------------------------------------------------------
  return cudaGetLastError();
}

cudaError_t saxpy_shaped(float a, const float *d_x, float *d_y, int n, launch_shape shape) {
  saxpy_kernel<<<shape.grid, shape.block>>>(a, d_x, d_y, n);
  return cudaGetLastError();
}
