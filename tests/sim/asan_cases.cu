// Out-of-bounds accesses in kernels, reported by AddressSanitizer with the file and line
// (sim-asan preset). Usage: sim_asan global|shared|clean
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void read_past_end(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[i] * 2.0f; // no bounds check: the last block reads and writes past n
  (void)n;
}

__global__ void shared_past_end(float *y) {
  __shared__ float tile[32];
  tile[threadIdx.x] = 1.0f; // 64 threads, 32 slots
  __syncthreads();
  y[threadIdx.x] = tile[threadIdx.x];
}

__global__ void reduce_ok(const float *x, float *out) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  s[t] = x[t];
  __syncthreads();
  for (unsigned k = 32; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  float v = s[0];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if (t == 0) *out = v;
}

int main(int argc, char **argv) {
  const char *c = argc > 1 ? argv[1] : "";
  int n = 1000;
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMemset(x, 0, n * sizeof(float));
  if (!std::strcmp(c, "global")) {
    read_past_end<<<(n + 255) / 256, 256>>>(x, y, n);
  } else if (!std::strcmp(c, "shared")) {
    shared_past_end<<<1, 64>>>(y);
  } else {
    for (int r = 0; r < 3; ++r) reduce_ok<<<4, 64>>>(x, y);
  }
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s: %s\n", c, e == cudaSuccess ? "ok" : cudaGetErrorString(e));
  cudaFree(x);
  cudaFree(y);
  return 0;
}
