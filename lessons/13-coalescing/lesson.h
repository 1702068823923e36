/* Lesson 13: the interface between the driver (main.c) and your code (exercise.cu). */
#ifndef LESSON_H
#define LESSON_H

#include "wb.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
  TILE = 32,    /* the transposes' tiles and blocks are TILE x TILE: one warp per row of a tile */
  THREADS = 256 /* threads per block of the one-dimensional kernels */
};

/* Every function below queues its kernel on the default stream and returns the launch status;
 * none of them waits. Matrices are row-major in device memory: `in` has `rows` rows of `cols`
 * floats, and its transpose `out` has `cols` rows of `rows` floats. */

/* A plain copy of rows x cols floats, the bandwidth the transposes are measured against. */
cudaError_t copy_matrix(const float *d_in, float *d_out, int rows, int cols);
/* The naive transpose (given): each thread reads one element and writes it where it belongs. */
cudaError_t transpose_naive(const float *d_in, float *d_out, int rows, int cols);
/* Task 1: the transpose through a TILE x TILE tile of shared memory. */
cudaError_t transpose_tiled(const float *d_in, float *d_out, int rows, int cols);
/* Task 2: the same with the tile padded by one column (no bank conflicts). */
cudaError_t transpose_padded(const float *d_in, float *d_out, int rows, int cols);

/* Lesson 02's record of one thread, "who am I": an array of these structures (AoS). */
typedef struct {
  int block;  /* the block's number in the grid */
  int thread; /* the thread's number within its block */
  int rank;   /* the thread's number in the whole grid */
  int warp;   /* which warp of its block the thread belongs to */
  int lane;   /* the thread's place within its warp, 0..31 */
} who_am_i;

/* The same records as a structure of arrays (SoA): field f of record i is f[i]. */
typedef struct {
  int *block, *thread, *rank, *warp, *lane;
} who_am_i_columns;

/* out[i] = warp * 32 + lane of record i, for i < n: from the array of structures (given), and
 * from the structure of arrays (task 3). */
cudaError_t thread_from_structures(const who_am_i *d_records, int *d_out, int n);
cudaError_t thread_from_columns(who_am_i_columns d_columns, int *d_out, int n);

/* The stride sweep (given): out[i] = in[i * stride] for i < count. */
cudaError_t read_strided(const float *d_in, float *d_out, int count, int stride);

/* The CPU references (reference.c). */
void transpose_reference(const float *in, float *out, int rows, int cols);
void thread_reference(const who_am_i *records, int *out, int n);

#ifdef __cplusplus
}
#endif

#endif
