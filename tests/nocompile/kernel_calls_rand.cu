// expect: device code calls the host function 'rand'
#include <cstdlib>
__global__ void noise(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = (float)rand() / RAND_MAX; // error-here
}
