// The kernel, with the host function main.c calls (extern "C"); scale() is in scale.cu.
#include <cuda_runtime.h>

__device__ float scale(float x, float factor);

__global__ void scale_all(float *data, int n, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = scale(data[i], factor);
}

extern "C" int scale_on_device(float *host, int n, float factor) {
  float *data = nullptr;
  if (cudaMalloc(&data, n * sizeof(float)) != cudaSuccess) return 1;
  cudaMemcpy(data, host, n * sizeof(float), cudaMemcpyHostToDevice);
  scale_all<<<(n + 255) / 256, 256>>>(data, n, factor);
  cudaMemcpy(host, data, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaError_t err = cudaGetLastError();
  cudaFree(data);
  return err != cudaSuccess;
}
