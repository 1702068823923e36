/* Lesson 03: the interface between the driver (main.c) and your code (exercise.cu). */
#ifndef LESSON_H
#define LESSON_H

#include "wb.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Threads per block for the many-block launch: a multiple of the warp size (32), in the
 * 128-512 range where lesson 02 says to start. */
enum { COPY_BLOCK_SIZE = 256 };

/* Your host functions (exercise.cu). Both copy d_in[0..n) to d_out[0..n) on the device, and
 * return the first error the launch or the kernel caused, or cudaSuccess.
 * copy_one_block:   ONE block of n threads, like the Python original's foo[1, len(data)].
 * copy_many_blocks: as many blocks of COPY_BLOCK_SIZE threads as it takes to cover n. */
cudaError_t copy_one_block(const float *d_in, float *d_out, int n);
cudaError_t copy_many_blocks(const float *d_in, float *d_out, int n);

/* The CPU reference (reference.c): the same copy, by an ordinary loop. */
void copy_reference(const float *in, float *out, int n);

#ifdef __cplusplus
}
#endif

#endif
