/* Lesson 09: Numba's prange in C is OpenMP.
 *
 * `#pragma omp parallel for` in front of a for loop shares its iterations among a team of
 * threads, the way `numba.prange` does. Two things decide whether that is a good idea: every
 * iteration must be independent of the others (or combine through a reduction), and the work
 * must be big enough to pay for waking the team.
 *
 * Your three tasks are marked below. Check your work with:  ./workbook check 09
 * (or: ctest --test-dir build -L lesson09 --output-on-failure).
 */
#include "lesson.h"

#include <omp.h>

/* Monte Carlo pi: count the samples whose point lies inside the quarter circle. */
long long pi_count_parallel(long long samples, uint64_t seed) {
  // ---- task 1: a parallel loop with a reduction ------------------------------------------
  long long hits = 0;
#pragma omp parallel for reduction(+ : hits)
  for (long long i = 0; i < samples; ++i) hits += pi_sample_inside(seed, (uint64_t)i);
  return hits;
  // ---- end of task 1 ---------------------------------------------------------------------
}

/* out[z][y][x] = in[z][y][x] + 2, one thread. */
void add_two_serial(const double *in, double *out, shape3 shape) {
  // ---- task 2: the loop order that follows memory ----------------------------------------
  for (size_t z = 0; z < shape.nz; ++z)
    for (size_t y = 0; y < shape.ny; ++y)
      for (size_t x = 0; x < shape.nx; ++x) {
        size_t i = (z * shape.ny + y) * shape.nx + x;
        out[i] = in[i] + 2.0;
      }
  // ---- end of task 2 ---------------------------------------------------------------------
}

/* The same, shared among the OpenMP threads. */
void add_two_parallel(const double *in, double *out, shape3 shape) {
  // ---- task 3: parallel over the outer loops, with collapse ------------------------------
#pragma omp parallel for collapse(2)
  for (size_t z = 0; z < shape.nz; ++z)
    for (size_t y = 0; y < shape.ny; ++y)
      for (size_t x = 0; x < shape.nx; ++x) {
        size_t i = (z * shape.ny + y) * shape.nx + x;
        out[i] = in[i] + 2.0;
      }
  // ---- end of task 3 ---------------------------------------------------------------------
}
