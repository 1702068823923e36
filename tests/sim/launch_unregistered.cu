// cudaLaunchKernel with an address that is no registered __global__ function fails with
// cudaErrorInvalidDeviceFunction and a line saying why.
#include <cstdio>

void not_a_kernel(int *out) {
  *out = 1;
}

int main() {
  int *d = NULL;
  void *args[] = {&d};
  cudaError_t status = cudaLaunchKernel((void *)not_a_kernel, dim3(1), dim3(1), args, 0, 0);
  fprintf(stderr, "cudaLaunchKernel -> %s\n", cudaGetErrorName(status));
  return status == cudaErrorInvalidDeviceFunction ? 0 : 1;
}
