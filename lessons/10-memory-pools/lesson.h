/* Lesson 10: the interface between the driver (main.c), the CPU reference (reference.c) and your
 * code (exercise.cu). */
#ifndef LESSON_H
#define LESSON_H

#include "wb.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- exercise.cu --------------------------------------------------------------------------- */

/* Fill d_data[0..n) with 0, 1, 2, ... on the GPU (the counterpart of cp.arange), on `stream`.
 * Returns the launch's error, without waiting for the kernel. */
cudaError_t arange_on_device(int *d_data, size_t n, cudaStream_t stream);

/* `steps` rounds of: get an n-int temporary, tmp[i] = (x[i] % 1000) * (step + 1), then
 * acc[i] += tmp[i], and give the temporary back. The first gets each temporary with cudaMalloc
 * and returns it with cudaFree; the second (yours) uses the stream-ordered pool. Both return the
 * first error and leave the work queued on `stream` (the caller waits). */
cudaError_t steps_with_cudamalloc(const int *d_x, int *d_acc, size_t n, int steps,
                                  cudaStream_t stream);
cudaError_t steps_with_pool(const int *d_x, int *d_acc, size_t n, int steps, cudaStream_t stream);

/* Let `pool` keep up to `bytes` of memory it no longer uses instead of giving it back to the
 * system at every synchronization. */
cudaError_t set_release_threshold(cudaMemPool_t pool, unsigned long long bytes);

/* Wait for `stream`, then give every unused byte of `pool` back to the system (the counterpart of
 * CuPy's free_all_blocks). */
cudaError_t trim_pool(cudaMemPool_t pool, cudaStream_t stream);

/* ---- reference.c --------------------------------------------------------------------------- */

void arange_reference(int *data, size_t n);
void steps_reference(const int *x, int *acc, size_t n, int steps);

#ifdef __cplusplus
}
#endif

#endif
