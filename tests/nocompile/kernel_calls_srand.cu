// expect: device code calls the host function 'srand'
#include <stdlib.h>
__global__ void seed(unsigned s) {
  srand(s + threadIdx.x); // error-here
}
