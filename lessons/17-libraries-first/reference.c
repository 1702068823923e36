/* Lesson 17: the CPU reference, plain loops in double precision. */
#include "lesson.h"

void matmul_reference(const float *a, const float *b, float *c, int m, int n, int k, int first_row,
                      int rows) {
  for (int row = first_row; row < first_row + rows && row < m; ++row)
    for (int col = 0; col < n; ++col) {
      double sum = 0.0;
      for (int i = 0; i < k; ++i) sum += (double)a[(size_t)row * k + i] * b[(size_t)i * n + col];
      c[(size_t)row * n + col] = (float)sum;
    }
}
