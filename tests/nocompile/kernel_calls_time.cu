// expect: device code calls the host function 'time'
#include <ctime>
__global__ void stamp(long *out) {
  out[threadIdx.x] = (long)time(NULL); // error-here
}
