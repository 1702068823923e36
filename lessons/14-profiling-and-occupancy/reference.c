/* Lesson 14: the CPU reference, a plain loop. */
#include "lesson.h"

void saxpy_reference(float a, const float *x, float *y, int n) {
  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}
