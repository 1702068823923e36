// A kernel launch written inside a #define, as nvcc allows: the macro expands before the
// simulator's rewriter reads the file.
#include <cstdio>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t status_ = (call);                                                                  \
    if (status_ != cudaSuccess) {                                                                  \
      printf("FAIL %s: %s\n", #call, cudaGetErrorString(status_));                                 \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

#define LAUNCH_1D(kernel, n, ...) kernel<<<((n) + 127) / 128, 128>>>(__VA_ARGS__)

__global__ void scale(float *data, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

int main() {
  const int n = 1000;
  float host[n];
  for (int i = 0; i < n; i++) host[i] = (float)i;
  float *device = NULL;
  CHECK(cudaMalloc((void **)&device, sizeof host));
  CHECK(cudaMemcpy(device, host, sizeof host, cudaMemcpyHostToDevice));
  LAUNCH_1D(scale, n, device, 2.0f, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(host, device, sizeof host, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(device));
  for (int i = 0; i < n; i++) {
    if (host[i] != 2.0f * (float)i) {
      printf("FAIL launch_in_macro: element %d is %g\n", i, host[i]);
      return 1;
    }
  }
  printf("PASS launch_in_macro\n");
  return 0;
}
