// cudaLaunchKernel: the runtime API's launch, with the kernel's arguments as an array of
// pointers, and the C++ template form.
#include <cstdio>

__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1000;
  float x[n], y[n];
  for (int i = 0; i < n; i++) x[i] = (float)i, y[i] = 1.0f;
  float *d_x = NULL, *d_y = NULL;
  cudaMalloc((void **)&d_x, sizeof x);
  cudaMalloc((void **)&d_y, sizeof y);
  cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice);
  cudaMemcpy(d_y, y, sizeof y, cudaMemcpyHostToDevice);
  float a = 2.0f;
  int count = n;
  void *args[] = {&a, &d_x, &d_y, &count};
  dim3 grid((n + 255) / 256), block(256);
  cudaError_t first = cudaLaunchKernel((void *)axpy, grid, block, args, 0, 0);
  cudaError_t second = cudaLaunchKernel(axpy, grid, block, args); // the C++ template form
  cudaError_t done = cudaMemcpy(y, d_y, sizeof y, cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_y);
  if (first != cudaSuccess || second != cudaSuccess || done != cudaSuccess) {
    printf("FAIL launch_kernel_api: %s / %s / %s\n", cudaGetErrorString(first),
           cudaGetErrorString(second), cudaGetErrorString(done));
    return 1;
  }
  for (int i = 0; i < n; i++) {
    if (y[i] != 4.0f * (float)i + 1.0f) {
      printf("FAIL launch_kernel_api: y[%d] is %g\n", i, y[i]);
      return 1;
    }
  }
  printf("PASS launch_kernel_api\n");
  return 0;
}
