// A kernel launched from a host function that the rewriter leaves uninstrumented in a checked
// build (rewriter/host_code.c marks main here): the kernel is still checked, since the launch's
// lambdas are functions of their own, instrumented as before.
#include <cstdio>

__global__ void write_past(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) p[i] = 1.0f; // one element past the end
}

int main(void) {
  float *d = NULL;
  cudaMalloc(&d, 64 * sizeof(float));
  write_past<<<1, 128>>>(d, 64);
  cudaError_t status = cudaDeviceSynchronize();
  printf("host code launch: %s\n", cudaGetErrorName(status));
  cudaFree(d);
  return 0;
}
