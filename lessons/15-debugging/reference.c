/* Lesson 15: the CPU references, plain loops. */
#include "lesson.h"

void signal_reference(float *signal, int n, unsigned seed) {
  for (int i = 0; i < n; ++i)
    signal[i] = (float)(((unsigned)i * 2654435761u + seed) % 1000u) / 1000.0f;
}

void smooth_reference(const float *signal, float *smoothed, int n) {
  for (int i = 0; i < n; ++i) {
    double sum = signal[i];
    if (i > 0) sum += signal[i - 1];
    if (i + 1 < n) sum += signal[i + 1];
    smoothed[i] = (float)(sum / 3.0);
  }
}
