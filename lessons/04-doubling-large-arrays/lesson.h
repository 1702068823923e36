/* Lesson 04: the interface between the driver (main.c) and your code (exercise.cu). */
#ifndef LESSON_H
#define LESSON_H

#include "wb.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Your launch (exercise.cu, tasks 1 and 2): queue out[i] = 2 * in[i] for every i < n, one thread
 * per element, threads_per_block threads in each block and as many blocks as it takes. d_in and
 * d_out are device memory. Returns the launch status (cudaGetLastError()); it does not wait. */
cudaError_t double_elements(const double *d_in, double *d_out, int n, int threads_per_block);

/* Your grid-stride launch (exercise.cu, task 3): the same result on exactly `blocks` blocks of
 * threads_per_block threads, whatever n is. Returns the launch status; it does not wait. */
cudaError_t double_elements_grid_stride(const double *d_in, double *d_out, int n, int blocks,
                                        int threads_per_block);

/* The CPU reference (reference.c): the same numbers from a plain C loop. */
void double_reference(const double *in, double *out, int n);

#ifdef __cplusplus
}
#endif

#endif
