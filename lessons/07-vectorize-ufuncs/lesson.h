/* Lesson 07: the interface between the driver (main.c), the CPU loops (reference.c) and your code
 * (exercise.cu). */
#ifndef LESSON_H
#define LESSON_H

#include "wb.h"

#include "ufunc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Your GPU ufuncs (exercise.cu), written by your UFUNC2_CUDA macro: d_out[i] = FN(d_a[i], d_b[i])
 * for 0 <= i < n, all three pointers in device memory. Each launches its kernel and returns the
 * launch's status; it does not wait for the kernel. One function per type signature. */
cudaError_t add_f32_on_device(const float *d_a, const float *d_b, float *d_out, long long n);
cudaError_t original_expression_f32_on_device(const float *d_a, const float *d_b, float *d_out,
                                              long long n);
cudaError_t original_expression_i32_on_device(const int *d_a, const int *d_b, int *d_out,
                                              long long n);

/* What @vectorize(target='cuda') does when it is handed host (NumPy) arrays (exercise.cu):
 * allocate device memory, copy a and b in, launch, copy out back, free. Host pointers. Returns the
 * first error, or cudaSuccess once out holds the result. */
cudaError_t add_f32_from_host(const float *a, const float *b, float *out, long long n);

/* The CPU loops (reference.c), written by UFUNC2_CPU from the same scalar functions. The serial
 * ones are the check's reference. */
void add_f32_serial(const float *a, const float *b, float *out, long long n);
void add_f32_openmp(const float *a, const float *b, float *out, long long n);
void original_expression_f32_serial(const float *a, const float *b, float *out, long long n);
void original_expression_f32_openmp(const float *a, const float *b, float *out, long long n);
void original_expression_i32_serial(const int *a, const int *b, int *out, long long n);
void original_expression_i32_openmp(const int *a, const int *b, int *out, long long n);

/* Use at most `threads` OpenMP threads (0: all cores); returns how many the loops will use. */
int cpu_set_threads(int threads);

#ifdef __cplusplus
}
#endif

#endif
