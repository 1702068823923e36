/* Lesson 99 (template): the interface between the driver (main.c) and your code (exercise.cu). */
#ifndef LESSON_H
#define LESSON_H

#include "wb.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Threads per block of the launch. */
enum { SCALE_BLOCK_SIZE = 256 };

/* Your host function (exercise.cu): out[i] = factor * in[i] for i in [0, n), on the device;
 * returns the first error the launch or the kernel caused, or cudaSuccess. */
cudaError_t scale_on_device(const float *d_in, float *d_out, float factor, int n);

/* The CPU reference (reference.c): the same, by an ordinary loop. */
void scale_reference(const float *in, float *out, float factor, int n);

#ifdef __cplusplus
}
#endif

#endif
