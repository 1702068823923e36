/* Lesson 13: the CPU references, plain loops. */
#include "lesson.h"

void transpose_reference(const float *in, float *out, int rows, int cols) {
  for (int row = 0; row < rows; ++row)
    for (int col = 0; col < cols; ++col)
      out[(size_t)col * rows + row] = in[(size_t)row * cols + col];
}

void thread_reference(const who_am_i *records, int *out, int n) {
  for (int i = 0; i < n; ++i) out[i] = records[i].warp * 32 + records[i].lane;
}
