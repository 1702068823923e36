/* Lesson 15: the interface between the driver (main.c) and your code (exercise.cu). */
#ifndef LESSON_H
#define LESSON_H

#include "wb.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
  BLOCK = 256 /* threads per block of both kernels, one element each */
};

/* Queue the kernel that writes the test signal, signal[i] = ((i * 2654435761 + seed) % 1000)
 * / 1000 for every i < n (task 1). Returns the launch status; it does not wait. */
cudaError_t fill_signal(float *signal, int n, unsigned seed);

/* Queue the smoothing kernel: smoothed[i] = (signal[i - 1] + signal[i] + signal[i + 1]) / 3 for
 * every i < n, where elements outside 0..n-1 count as 0 (tasks 2 and 3). Returns the launch
 * status; it does not wait. */
cudaError_t smooth(const float *signal, float *smoothed, int n);

/* The whole pipeline on managed memory (task 4): fill_signal, smooth, then the largest value of
 * smoothed, read on the host. signal and smoothed come from cudaMallocManaged. Returns -1 when
 * a launch or the wait reports an error. */
float pipeline_peak(float *signal, float *smoothed, int n, unsigned seed);

/* The CPU references (reference.c). */
void signal_reference(float *signal, int n, unsigned seed);
void smooth_reference(const float *signal, float *smoothed, int n);

#ifdef __cplusplus
}
#endif

#endif
