/* Lesson 08: the interface between the driver (main.c), the CPU references (reference.c) and your
 * code (exercise.cu). Numbers are checked from 0 up to, not including, n: flags[k] is 1 when k is
 * prime and 0 otherwise, and "the primes below n" are the k < n with flags[k] == 1. */
#ifndef LESSON_H
#define LESSON_H

#include "wb.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The Python original's way, kept as a warning (exercise.cu): for each number 2 <= k < count, one
 * launch of a one-thread kernel and two tiny copies. Fills the HOST array flags[0..count). */
cudaError_t primes_one_launch_per_number(unsigned char *flags, int count);

/* One thread per number (exercise.cu): fills d_flags[0..n) and sets *d_count to the number of
 * primes below n. Both pointers are device memory. Launches and returns the launch's status; it
 * does not wait for the kernel. */
cudaError_t primes_on_device(unsigned char *d_flags, int n, unsigned int *d_count);

/* The CPU references (reference.c). Both fill flags[0..n) and return the number of primes. */
unsigned int primes_sieve(unsigned char *flags, int n); /* exact and fast */
unsigned int primes_trial_division(unsigned char *flags,
                                   int n); /* the Python original's CPU ufunc */

#ifdef __cplusplus
}
#endif

#endif
