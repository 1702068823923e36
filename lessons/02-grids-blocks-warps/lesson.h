/* Lesson 02: the interface between the driver (main.c) and your code (exercise.cu). */
#ifndef LESSON_H
#define LESSON_H

#include "wb.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A size in three dimensions: x varies fastest, then y, then z (like CUDA's dim3). A 1D shape
 * is {n, 1, 1}, a 2D one {width, height, 1}. */
typedef struct {
  int x, y, z;
} shape3;

/* What one thread writes into the cell of the data it handled: "who am I". */
typedef struct {
  int block;  /* the block's number in the grid, counting x fastest, then y, then z */
  int thread; /* the thread's number within its block, counting the same way */
  int rank;   /* the thread's number in the whole grid: block * threads per block + thread */
  int warp;   /* which warp of its block the thread belongs to */
  int lane;   /* the thread's place within its warp, 0..31 */
} who_am_i;

/* The map of a data shape: one who_am_i per cell, cell (x, y, z) at index
 * (z * data.y + y) * data.x + x. */
static inline long long cell_count(shape3 s) {
  return (long long)s.x * s.y * s.z;
}

/* Your host function (exercise.cu): launch blocks of `block` threads, enough of them to cover
 * `data` in every dimension, and have each thread fill in its cell of d_map (on the device).
 * Returns the first error the launch or the kernel caused, or cudaSuccess. */
cudaError_t who_am_i_on_device(who_am_i *d_map, shape3 data, shape3 block);

/* The CPU reference (reference.c): the same map, worked out backwards from each cell. */
void who_am_i_reference(who_am_i *map, shape3 data, shape3 block);

#ifdef __cplusplus
}
#endif

#endif
