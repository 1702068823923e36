// expect: host code calls the __device__ function 'curand_uniform'
// cuRAND's device API is device code: a host function that draws from it is rejected (and nvcc's
// verdict runs with curand_kernel.h's tables thinned: it must still match nvcc's own run).
#include <curand_kernel.h>

float draw_on_host(curandStatePhilox4_32_10_t *state) {
  return curand_uniform(state); // error-here
}
