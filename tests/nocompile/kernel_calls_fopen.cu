// expect: device code calls the host function 'fopen'
#include <cstdio>
__global__ void log_values(const float *data) {
  FILE *f = fopen("log.txt", "w"); // error-here
  (void)f;
  (void)data;
}
