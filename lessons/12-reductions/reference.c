/* Lesson 12: the CPU references. */
#include "lesson.h"

/* Kahan's compensated summation, in double: the error of the result is a few units in the last
 * place of a double, whatever n is, so it serves as the exact sum when checking float sums. */
double sum_reference(const float *in, int n) {
  double sum = 0.0, compensation = 0.0; /* the low-order bits the last addition lost */
  for (int i = 0; i < n; ++i) {
    double term = (double)in[i] - compensation;
    double next = sum + term;
    compensation = (next - sum) - term;
    sum = next;
  }
  return sum;
}

/* The loop of lesson 09 (and of the Python original), single-threaded: points from the workbook's
 * own generator, so the count differs from the GPU's, not the estimate's accuracy. */
long long count_pi_hits_reference(long long samples, uint64_t seed) {
  long long hits = 0;
  for (long long i = 0; i < samples; ++i) {
    double x = wb_uniform_f64(seed, 2 * (uint64_t)i), y = wb_uniform_f64(seed, 2 * (uint64_t)i + 1);
    hits += x * x + y * y <= 1.0;
  }
  return hits;
}
