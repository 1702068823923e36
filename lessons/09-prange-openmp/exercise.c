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
  // TODO: count the samples i = 0 .. samples-1 for which pi_sample_inside(seed, i) is true,
  //       with the loop shared among threads: `#pragma omp parallel for reduction(+ : hits)`.
  //       The reduction gives each thread its own private count and adds them up at the end;
  //       without it, every thread would race on one shared counter.
  (void)samples;
  (void)seed;
  return 0;
  // ---- end of task 1 ---------------------------------------------------------------------
}

/* out[z][y][x] = in[z][y][x] + 2, one thread. */
void add_two_serial(const double *in, double *out, shape3 shape) {
  // ---- task 2: the loop order that follows memory ----------------------------------------
  // TODO: write three nested loops over z, y and x that set out[i] = in[i] + 2.0, where
  //       i = (z * shape.ny + y) * shape.nx + x. Choose the order so that the innermost loop
  //       walks through memory one double after the next (compare add_two_seed_order in
  //       reference.c, which gets it backwards).
  (void)in;
  (void)out;
  (void)shape;
  // ---- end of task 2 ---------------------------------------------------------------------
}

/* The same, shared among the OpenMP threads. */
void add_two_parallel(const double *in, double *out, shape3 shape) {
  // ---- task 3: parallel over the outer loops, with collapse ------------------------------
  // TODO: the loops of task 2 with `#pragma omp parallel for collapse(2)` in front: collapse
  //       fuses the z and y loops into one loop of nz * ny iterations to share out, so a thin
  //       array (nz = 3, say) still keeps 16 threads busy. Leave x innermost and serial.
  (void)in;
  (void)out;
  (void)shape;
  // ---- end of task 3 ---------------------------------------------------------------------
}
