/* Lesson 11: the interface between the driver (main.c) and your code (exercise.cu). */
#ifndef LESSON_H
#define LESSON_H

#include "wb.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
  RADIUS = 3,          /* the stencil adds each element and its 3 neighbours on either side */
  STENCIL_BLOCK = 256, /* threads per block of the stencil, one element each */
  TILE = 16            /* the matrix multiply's tiles and blocks are TILE x TILE */
};

/* Your stencil (exercise.cu, tasks 1 and 2): queue out[i] = in[i - RADIUS] + ... + in[i + RADIUS]
 * for every i < n, where elements outside 0..n-1 count as 0. d_in and d_out are device memory.
 * Returns the launch status; it does not wait. */
cudaError_t stencil_1d(const float *d_in, float *d_out, int n);

/* C (m x n) = A (m x k) times B (k x n), all row-major in device memory: the naive kernel
 * (given) and your tiled one (exercise.cu, task 3). Return the launch status; they do not wait. */
cudaError_t matmul_naive(const float *d_a, const float *d_b, float *d_c, int m, int n, int k);
cudaError_t matmul_tiled(const float *d_a, const float *d_b, float *d_c, int m, int n, int k);

/* The CPU references (reference.c), in double. matmul_reference computes rows first_row to
 * first_row + rows - 1 of C only (the driver checks a sample of rows at large sizes). */
void stencil_reference(const float *in, float *out, int n);
void matmul_reference(const float *a, const float *b, float *c, int m, int n, int k, int first_row,
                      int rows);

#ifdef __cplusplus
}
#endif

#endif
