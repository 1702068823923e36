/* Lesson 05: the interface between the driver (main.c) and your code (exercise.cu).
 *
 * Every way computes out[i] = in[i] + 2 for i < n. The "host" pointers are what the CPU writes
 * the input into and reads the result from; the "device" pointers are what the kernel gets. */
#ifndef LESSON_H
#define LESSON_H

#include "wb.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Given (exercise.cu): queue the kernel on `stream` over in[0..n) and out[0..n), pointers the
 * device can use. Returns the launch status; it does not wait. */
cudaError_t add_two_launch(const double *in, double *out, int n, cudaStream_t stream);

/* Task 1 (ways 1 and 2): allocate two arrays of n doubles of managed memory, usable by host
 * and device alike. */
cudaError_t managed_alloc(double **in, double **out, size_t n);

/* Task 2 (ways 1 and 7): run the kernel on memory both sides can reach (managed or mapped),
 * with no copies, and return when the result can be read on the host. */
cudaError_t run_in_place(const double *in, double *out, int n);

/* Task 3 (way 2): the same on managed memory, but prefetch the arrays to the device before the
 * kernel and the result back to the host after it. */
cudaError_t run_managed_prefetched(const double *in, double *out, int n);

/* Task 4 (ways 3 to 6): copy host_in to dev_in, run the kernel into dev_out, copy dev_out to
 * host_out (an existing host array). Returns when host_out holds the result. */
cudaError_t run_explicit(const double *host_in, double *host_out, double *dev_in, double *dev_out,
                         int n);

/* Task 5 (way 5): allocate two host arrays of n doubles of pinned (page-locked) memory. */
cudaError_t pinned_alloc(double **host_in, double **host_out, size_t n);

/* Task 6 (way 6): pin two existing malloc'd host arrays of n doubles in place. */
cudaError_t pin_existing(double *host_in, double *host_out, size_t n);

/* Task 7 (way 7): allocate two arrays of n doubles of mapped (zero-copy) host memory, and find
 * the device's pointers to them. */
cudaError_t mapped_alloc(double **host_in, double **host_out, double **dev_in, double **dev_out,
                         size_t n);

/* The CPU reference (reference.c). */
void add_two_reference(const double *in, double *out, int n);

#ifdef __cplusplus
}
#endif

#endif
