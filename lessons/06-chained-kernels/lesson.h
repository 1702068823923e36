/* Lesson 06: the interface between the driver (main.c) and your code (exercise.cu).
 *
 * The chain: three small kernels applied one after another to every element,
 *   scale (x * 3), then shift (x + 1), then square (x * x),
 * so out[i] = (3 * in[i] + 1)^2. Every function below takes the input in host memory and returns
 * when the result is in host memory, in host_out. d_data is a device array of n doubles. */
#ifndef LESSON_H
#define LESSON_H

#include "wb.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { CHAIN_STEPS = 3 };

/* Given (exercise.cu): queue step 0, 1 or 2 of the chain over d_data[0..n) on `stream`.
 * Returns the launch status; it does not wait. */
cudaError_t chain_step(int step, double *d_data, int n, cudaStream_t stream);
/* Given: queue all three steps, in order, on `stream`. */
cudaError_t chain_all_steps(double *d_data, int n, cudaStream_t stream);

/* Task 1: the naive way, a round trip to the host around every step. */
cudaError_t chain_round_trips(const double *host_in, double *host_out, double *d_data, int n);

/* Task 2: copy in once, all three steps on the device, copy out once. */
cudaError_t chain_on_device(const double *host_in, double *host_out, double *d_data, int n);

/* Tasks 3 and 4: the array in chunks of `chunk` elements (the last may be shorter); chunk c goes
 * on streams[c % stream_count] with asynchronous copies, so copies of one chunk can overlap the
 * kernels of another. host_in and host_out are pinned host memory. */
cudaError_t chain_streamed(const double *host_in, double *host_out, double *d_data, int n,
                           int chunk, const cudaStream_t *streams, int stream_count);

/* The CPU reference (reference.c). */
void chain_reference(const double *in, double *out, int n);

#ifdef __cplusplus
}
#endif

#endif
