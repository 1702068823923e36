/* Lesson 02: grids, blocks and warps.
 *
 * A launch kernel<<<blocks_per_grid, threads_per_block>>>(...) starts a GRID of blocks, each a
 * BLOCK of threads; both can have up to three dimensions (dim3). Every thread runs the same
 * kernel. What tells them apart is where they sit, which CUDA gives each thread in built-in
 * variables:
 *   threadIdx  this thread's position in its block   (0 <= threadIdx.x < blockDim.x, and y, z)
 *   blockIdx   this block's position in the grid     (0 <= blockIdx.x < gridDim.x, and y, z)
 *   blockDim   the shape of every block              gridDim   the shape of the grid
 *   warpSize   32: the hardware runs a block's threads in WARPS of 32 consecutive threads
 *
 * Here each thread finds the cell of the data that is its own and writes "who am I" into it. The
 * driver checks the whole map against the CPU for 1D, 2D and 3D shapes and draws a small one.
 * Your five tasks are marked below. Check your work with:  ./workbook check 02
 * (or: ctest --test-dir build -L lesson02 --output-on-failure).
 */
#include "lesson.h"

__global__ void who_am_i_kernel(who_am_i *map, shape3 data) {
  // ---- task 1: which cell is mine? -----------------------------------------------------------
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  // ---- end of task 1 -------------------------------------------------------------------------

  // ---- task 2: stay inside the data, in every dimension --------------------------------------
  if (x >= data.x || y >= data.y || z >= data.z) return;
  // ---- end of task 2 -------------------------------------------------------------------------

  // ---- task 3: my block's number, my number in the block, my rank in the grid ----------------
  int block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  int thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  int rank = block * (blockDim.x * blockDim.y * blockDim.z) + thread;
  // ---- end of task 3 -------------------------------------------------------------------------

  // ---- task 4: my warp and my lane -----------------------------------------------------------
  int warp = thread / warpSize;
  int lane = thread % warpSize;
  // ---- end of task 4 -------------------------------------------------------------------------

  /* Cells are numbered x fastest, then y, then z; 64-bit so big 3D shapes cannot overflow. */
  who_am_i *mine = &map[((long long)z * data.y + y) * data.x + x];
  mine->block = block;
  mine->thread = thread;
  mine->rank = rank;
  mine->warp = warp;
  mine->lane = lane;
}

cudaError_t who_am_i_on_device(who_am_i *d_map, shape3 data, shape3 block) {
  dim3 threads_per_block(block.x, block.y, block.z);
  // ---- task 5: enough blocks to cover the data -----------------------------------------------
  dim3 blocks_per_grid((data.x + block.x - 1) / block.x, (data.y + block.y - 1) / block.y,
                       (data.z + block.z - 1) / block.z);
  // ---- end of task 5 -------------------------------------------------------------------------
  who_am_i_kernel<<<blocks_per_grid, threads_per_block>>>(d_map, data);
  cudaError_t status = cudaGetLastError(); /* was the launch accepted? (lesson 01) */
  if (status != cudaSuccess || wb_timing()) return status; /* timing: the events wait */
  return cudaDeviceSynchronize();                          /* did the kernel run to the end? */
}
