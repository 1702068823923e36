/* Lesson 06: the CPU reference: the three steps of the chain, one after another, as separate
 * statements so each rounds exactly as the separate kernels do. */
#include "lesson.h"

void chain_reference(const double *in, double *out, int n) {
  for (int i = 0; i < n; ++i) {
    double x = in[i] * 3.0; /* step 0: scale */
    x = x + 1.0;            /* step 1: shift */
    out[i] = x * x;         /* step 2: square */
  }
}
