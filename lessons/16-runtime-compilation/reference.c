/* Lesson 16: the CPU references, plain loops. */
#include "lesson.h"

void seed_reference(float *a, const float *b, int n) {
  for (int i = 0; i < n; ++i) a[i] = (a[i] * 10 + 2) * ((b[i] + 2) * 10 - 5) * 5;
}

void box_reference(const float *in, float *out, int n, int radius) {
  for (int i = 0; i < n; ++i) {
    float sum = 0.0f; /* in float and in the kernels' order: the same roundings */
    for (int d = -radius; d <= radius; ++d)
      if (i + d >= 0 && i + d < n) sum += in[i + d];
    out[i] = sum;
  }
}
