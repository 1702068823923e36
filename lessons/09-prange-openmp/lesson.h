/* Lesson 09: the interface between the driver (main.c), the CPU reference (reference.c) and your
 * code (exercise.c). */
#ifndef LESSON_H
#define LESSON_H

#include "wb.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Monte Carlo pi ------------------------------------------------------------------------ */

/* Sample number `sample` of the stream `seed`: is its point inside the quarter circle?
 *
 * This is a COUNTER-BASED generator: the point is a pure function of (seed, sample), computed
 * from nothing else. No state is carried from one sample to the next, so samples can be drawn
 * in any order, by any thread, and sample 12345 is always the same point.
 *
 * One 64-bit hash gives two 32-bit coordinates, x = hi / 2^32 and y = lo / 2^32 in [0, 1). The
 * point is inside when x*x + y*y < 1, which in whole numbers is hi*hi + lo*lo < 2^64. It is
 * tested exactly in 64-bit integers (each square fits; the sum might not, so one square moves
 * to the other side), so no compiler, flag or thread count can round it differently. */
static inline int pi_sample_inside(uint64_t seed, uint64_t sample) {
  uint64_t bits = wb_hash64(seed, sample);
  uint64_t x = bits >> 32, y = bits & 0xFFFFFFFFu;
  return x * x <= UINT64_MAX - y * y;
}

/* reference.c: how many of samples 0 .. samples-1 fall inside, one after another. */
long long pi_count_reference(long long samples, uint64_t seed);

/* exercise.c, task 1: the same count, with the samples shared among OpenMP threads. */
long long pi_count_parallel(long long samples, uint64_t seed);

/* ---- Adding 2 to a 3D array --------------------------------------------------------------- */

/* A C array of nz planes, each of ny rows of nx doubles, stored row after row (row-major):
 * element [z][y][x] is at index (z * ny + y) * nx + x, so x is the fast-moving index. */
typedef struct {
  size_t nz, ny, nx;
} shape3;

static inline size_t shape3_count(shape3 shape) {
  return shape.nz * shape.ny * shape.nx;
}

/* reference.c: out = in + 2, one flat loop over the whole array (the plain, obviously right way).
 */
void add_two_reference(const double *in, double *out, shape3 shape);

/* reference.c: out = in + 2 with the Python original's loop order, x outermost, then z, then y. */
void add_two_seed_order(const double *in, double *out, shape3 shape);

/* exercise.c, task 2: out = in + 2 with three nested loops in the order that suits the memory. */
void add_two_serial(const double *in, double *out, shape3 shape);

/* exercise.c, task 3: the same, with the loop nest shared among OpenMP threads. */
void add_two_parallel(const double *in, double *out, shape3 shape);

#ifdef __cplusplus
}
#endif

#endif
