/* Lesson 01: the interface between the driver (main.c) and your code (exercise.cu). */
#ifndef LESSON_H
#define LESSON_H

#include "wb.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Your host function (exercise.cu): fill d_out[0..n) with i*i on the GPU, launching
 * threads_per_block threads per block. Returns the first error the launch or the kernel caused,
 * or cudaSuccess. */
cudaError_t squares_on_device(float *d_out, int n, int threads_per_block);

/* The CPU reference (reference.c): the same numbers, computed by an ordinary C loop. */
void squares_reference(float *out, int n);

#ifdef __cplusplus
}
#endif

#endif
