/* Lesson 99 (template): the CPU reference. */
#include "lesson.h"

void scale_reference(const float *in, float *out, float factor, int n) {
  for (int i = 0; i < n; ++i) out[i] = factor * in[i];
}
