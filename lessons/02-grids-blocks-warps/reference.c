/* Lesson 02: the CPU reference. It walks the cells and works out, for each one, which thread of
 * which block a correct launch gives it: the GPU's arithmetic run backwards. */
#include "lesson.h"

enum { WARP_SIZE = 32 };

void who_am_i_reference(who_am_i *map, shape3 data, shape3 block) {
  /* The grid: enough blocks to cover the data in each dimension (rounded up). */
  shape3 grid = {(data.x + block.x - 1) / block.x, (data.y + block.y - 1) / block.y,
                 (data.z + block.z - 1) / block.z};
  int threads_per_block = block.x * block.y * block.z;
  for (int z = 0; z < data.z; ++z)
    for (int y = 0; y < data.y; ++y)
      for (int x = 0; x < data.x; ++x) {
        /* Which block holds this cell, and where inside the block it sits. */
        int block_x = x / block.x, block_y = y / block.y, block_z = z / block.z;
        int thread_x = x % block.x, thread_y = y % block.y, thread_z = z % block.z;
        who_am_i *cell = &map[((long long)z * data.y + y) * data.x + x];
        cell->block = (block_z * grid.y + block_y) * grid.x + block_x;
        cell->thread = (thread_z * block.y + thread_y) * block.x + thread_x;
        cell->rank = cell->block * threads_per_block + cell->thread;
        cell->warp = cell->thread / WARP_SIZE;
        cell->lane = cell->thread % WARP_SIZE;
      }
}
