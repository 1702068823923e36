/* Lesson 01: the CPU reference. An ordinary host function: it runs on the CPU, takes its
 * arguments, and may return a value; here it fills an array. */
#include "lesson.h"

void squares_reference(float *out, int n) {
  for (int i = 0; i < n; ++i) out[i] = (float)i * (float)i;
}
