/* Lesson 12: the interface between the driver (main.c) and your code (exercise.cu). */
#ifndef LESSON_H
#define LESSON_H

#include "wb.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Each function below queues its kernels on the default stream and returns the launch status;
 * none of them waits. d_in holds n floats in device memory; *d_total must be 0 before the sums
 * that add into it (the driver sets it). Every grid has `blocks` blocks of `threads` threads and
 * walks the array with a grid-stride loop, so any grid covers any n. */

/* Task 1: every thread adds each of its elements to *d_total with atomicAdd. */
cudaError_t sum_atomics(const float *d_in, int n, float *d_total, int blocks, int threads);

/* Task 2: a shared-memory tree in every block (any multiple of 32 threads, not only powers of 2),
 * one partial sum per block in d_partials (blocks floats), then a second pass, one block of
 * `threads` threads, sums the partials into *d_total. */
cudaError_t sum_tree(const float *d_in, int n, float *d_partials, float *d_total, int blocks,
                     int threads);

/* Task 3: warp shuffles, then one atomicAdd per block into *d_total (threads: a multiple of 32). */
cudaError_t sum_shuffle(const float *d_in, int n, float *d_total, int blocks, int threads);

/* Task 4: cooperative groups' reduce over tiles of 32, one atomicAdd per tile into *d_total. */
cudaError_t sum_cooperative_groups(const float *d_in, int n, float *d_total, int blocks,
                                   int threads);

/* Task 5: Monte Carlo pi: `samples` random points in the unit square, Philox generator seeded
 * with `seed`; adds the number that fall inside the quarter circle to *d_hits. */
cudaError_t count_pi_hits(long long samples, unsigned long long seed, unsigned long long *d_hits,
                          int blocks, int threads);

/* The CPU references (reference.c). */
double sum_reference(const float *in, int n);                        /* Kahan summation in double */
long long count_pi_hits_reference(long long samples, uint64_t seed); /* wb_uniform_f64 points */

#ifdef __cplusplus
}
#endif

#endif
