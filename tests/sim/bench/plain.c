/* The plain C loops the simulator is compared with (same flags as the simulated kernel). */
#include <stddef.h>

void plain_saxpy(float a, const float *x, float *y, int n) {
  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}
