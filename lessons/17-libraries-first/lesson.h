/* Lesson 17: the interface between the driver (main.c) and your code (exercise.cu). */
#ifndef LESSON_H
#define LESSON_H

#include "wb.h"

#include <cublas_v2.h>
#include <curand.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  TILE = 16,          /* the tiled multiply's tiles and blocks are TILE x TILE */
  NORMAL_BLOCK = 256, /* threads per block of the hand-written normal generator */
};

/* C (m x n) = A (m x k) times B (k x n), all ROW-major in device memory (as C arrays are), on
 * `stream`. They return the launch status and do not wait. The naive kernel is given; the tiled
 * one is task 1. */
cudaError_t matmul_naive(const float *d_a, const float *d_b, float *d_c, int m, int n, int k,
                         cudaStream_t stream);
cudaError_t matmul_tiled(const float *d_a, const float *d_b, float *d_c, int m, int n, int k,
                         cudaStream_t stream);

/* Task 2: a cuBLAS handle whose work goes to `stream`. */
cublasStatus_t library_handle(cublasHandle_t *handle, cudaStream_t stream);

/* Task 3: the same product as matmul_naive (row-major A, B and C) with cublasSgemm, which reads
 * and writes COLUMN-major matrices. Returns cuBLAS's status; it does not wait. */
cublasStatus_t matmul_cublas(cublasHandle_t handle, const float *d_a, const float *d_b, float *d_c,
                             int m, int n, int k);

/* Task 4: a cuRAND generator (Philox) seeded with `seed`, whose work goes to `stream`: made once
 * and kept, as the handle is. On an error it destroys what it made and returns cuRAND's status. */
curandStatus_t library_generator(curandGenerator_t *generator, unsigned long long seed,
                                 cudaStream_t stream);

/* Task 4: `count` (even) normal numbers, mean 0 and standard deviation 1, into d_out from the
 * generator, on its stream. Returns cuRAND's status; it does not wait. */
curandStatus_t normal_sample(curandGenerator_t generator, float *d_out, size_t count);

/* Given: the same with a hand-written kernel (curand_kernel.h's device API), on `stream`. */
cudaError_t normal_kernel(float *d_out, size_t count, unsigned long long seed, cudaStream_t stream);

/* The CPU reference (reference.c): rows first_row .. first_row + rows - 1 of C = A B, all
 * row-major, in double. */
void matmul_reference(const float *a, const float *b, float *c, int m, int n, int k, int first_row,
                      int rows);

#ifdef __cplusplus
}
#endif

#endif
