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
  if (threads <= 0 || shared_bytes > sm->shared_per_block) return 0;
  int warps = (threads + sm->warp_size - 1) / sm->warp_size; /* whole warps */
  int blocks = sm->max_blocks_per_sm;
  int by_warps = sm->max_threads_per_sm / sm->warp_size / warps;
  if (by_warps < blocks) blocks = by_warps;
  int unit = sm->register_unit; /* a warp's registers, rounded up to whole units */
  int per_warp = (registers * sm->warp_size + unit - 1) / unit * unit;
  int by_registers = per_warp > 0 ? sm->registers_per_sm / per_warp / warps : blocks;
  if (by_registers < blocks) blocks = by_registers;
  int per_block = (shared_bytes + sm->shared_unit - 1) / sm->shared_unit * sm->shared_unit +
                  sm->shared_reserved; /* whole units, and the reserved kilobyte */
  int by_shared = sm->shared_per_sm / per_block;
  if (by_shared < blocks) blocks = by_shared;
  return blocks;
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
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) y[i] = a * x[i] + y[i];
  // ---- end of task 3 ------------------------------------------------------------------------
}

/* The runtime's blocks per SM for saxpy_kernel in blocks of `threads` (check 2 uses it). */
cudaError_t saxpy_occupancy(int threads, int *blocks) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, saxpy_kernel, threads, 0);
}

cudaError_t saxpy(float a, const float *d_x, float *d_y, int n, launch_shape *shape) {
  // ---- task 2: the block size that maximizes occupancy --------------------------------------
  int min_grid = 0, block = 0;
  cudaError_t status = cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, saxpy_kernel, 0, 0);
  if (status != cudaSuccess) return status;
  int grid = (n + block - 1) / block;
  if (grid > min_grid) grid = min_grid; /* fill the device once, no more */
  saxpy_kernel<<<grid, block>>>(a, d_x, d_y, n);
  shape->block = block;
  shape->grid = grid;
  // ---- end of task 2 ------------------------------------------------------------------------
  return cudaGetLastError();
}

cudaError_t saxpy_shaped(float a, const float *d_x, float *d_y, int n, launch_shape shape) {
  saxpy_kernel<<<shape.grid, shape.block>>>(a, d_x, d_y, n);
  return cudaGetLastError();
}
