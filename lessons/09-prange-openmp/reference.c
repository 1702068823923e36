/* Lesson 09: the CPU references. Plain serial C: the yardsticks the parallel code is checked and
 * timed against. */
#include "lesson.h"

long long pi_count_reference(long long samples, uint64_t seed) {
  long long hits = 0;
  for (long long i = 0; i < samples; ++i) hits += pi_sample_inside(seed, (uint64_t)i);
  return hits;
}

void add_two_reference(const double *in, double *out, shape3 shape) {
  size_t count = shape3_count(shape);
  for (size_t i = 0; i < count; ++i) out[i] = in[i] + 2.0;
}

/* The Python original's Numba loop, written in C: `for x: for z: for y: out[z, y, x] = in[z, y, x]
 * + 2`. Correct, but the innermost loop steps through memory nx doubles at a time and the middle
 * one ny * nx at a time: nearly every access lands on a cache line (and often a page) that the
 * previous access did not touch, and by the time x moves on to the neighbouring element the line
 * has long been evicted. */
void add_two_seed_order(const double *in, double *out, shape3 shape) {
  for (size_t x = 0; x < shape.nx; ++x)
    for (size_t z = 0; z < shape.nz; ++z)
      for (size_t y = 0; y < shape.ny; ++y) {
        size_t i = (z * shape.ny + y) * shape.nx + x;
        out[i] = in[i] + 2.0;
      }
}
