// expect: device code calls the host function 'exit'
#include <cstdlib>
__global__ void check(const int *flags) {
  if (flags[threadIdx.x] < 0) exit(1); // error-here
}
