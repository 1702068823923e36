/* C host code in the host compiler's default dialect (as nvcc leaves it, gnu17 for gcc 12):
 * M_PI and timersub exist without a feature macro, and strict -std=c11 hides them.
 * MULTI_FILE_N comes from config.h, given with -include. */
#include <math.h>
#include <stdio.h>
#include <sys/time.h>

int scale_on_device(float *host, int n, float factor);

int main(void) {
  static float values[MULTI_FILE_N];
  struct timeval start, end;
  gettimeofday(&start, NULL);
  for (int i = 0; i < MULTI_FILE_N; i++) values[i] = (float)i;
  if (scale_on_device(values, MULTI_FILE_N, 3.0f) != 0) {
    printf("FAIL: the launch failed\n");
    return 1;
  }
  gettimeofday(&end, NULL);
  struct timeval elapsed;
  timersub(&end, &start, &elapsed);
  for (int i = 0; i < MULTI_FILE_N; i++)
    if (values[i] != 3.0f * (float)i || M_PI < 3.14) {
      printf("FAIL: values[%d] = %g, want %g\n", i, values[i], 3.0f * (float)i);
      return 1;
    }
  printf("PASS multi_file (%ld s)\n", (long)elapsed.tv_sec);
  return 0;
}
