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
  // TODO: compute this thread's global index in each dimension. x is the number of columns the
  //       blocks to my left cover (blockIdx.x * blockDim.x) plus my column in my own block
  //       (threadIdx.x); y and z work the same way with .y and .z.
  int x = 0, y = 0, z = 0;
  // ---- end of task 1 -------------------------------------------------------------------------

  // ---- task 2: stay inside the data, in every dimension --------------------------------------
  // TODO: the grid is rounded up in x, y and z, so threads at the far edges have no cell. Such a
  //       thread must return before it writes anything. Check all three dimensions against
  //       data.x, data.y and data.z.
  // ---- end of task 2 -------------------------------------------------------------------------

  // ---- task 3: my block's number, my number in the block, my rank in the grid ----------------
  // TODO: number the blocks of the grid x fastest, then y, then z, as the cells are numbered
  //       (use blockIdx and gridDim); number the threads of a block the same way (threadIdx and
  //       blockDim). rank is my number in the whole grid: the threads of all the blocks before
  //       mine, plus my number in my block.
  int block = -1, thread = -1, rank = -1;
  // ---- end of task 3 -------------------------------------------------------------------------

  // ---- task 4: my warp and my lane -----------------------------------------------------------
  // TODO: a warp is 32 consecutive threads of a block, in task 3's numbering: threads 0-31 are
  //       warp 0, 32-63 warp 1, ... The lane is my place within my warp. Use warpSize.
  int warp = -1, lane = -1;
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
  // TODO: in each dimension the grid needs data / block blocks, rounded UP, so the last block
  //       covers the leftover cells (1000 cells in blocks of 256 need 4 blocks, not 3). Integer
  //       division rounds down; find a way to round up with integers alone.
  dim3 blocks_per_grid(1, 1, 1);
  // ---- end of task 5 -------------------------------------------------------------------------
  who_am_i_kernel<<<blocks_per_grid, threads_per_block>>>(d_map, data);
  cudaError_t status = cudaGetLastError(); /* was the launch accepted? (lesson 01) */
  if (status != cudaSuccess || wb_timing()) return status; /* timing: the events wait */
  return cudaDeviceSynchronize();                          /* did the kernel run to the end? */
}
