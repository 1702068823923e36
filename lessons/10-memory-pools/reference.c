/* Lesson 10: the CPU reference, plain C loops doing what the kernels do. */
#include "lesson.h"

void arange_reference(int *data, size_t n) {
  for (size_t i = 0; i < n; ++i) data[i] = (int)i;
}

void steps_reference(const int *x, int *acc, size_t n, int steps) {
  for (size_t i = 0; i < n; ++i) {
    int sum = 0;
    for (int step = 0; step < steps; ++step) sum += (x[i] % 1000) * (step + 1);
    acc[i] = sum;
  }
}
