// Constant memory: polynomial coefficients go to __constant__ memory with cudaMemcpyToSymbol,
// every thread reads the same coefficient at the same time (a broadcast), and the kernel
// evaluates the polynomial with Horner's rule.
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define DEGREE 6

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL %s:%d: %s\\n", __FILE__, __LINE__, cudaGetErrorString(err_));                   \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

__constant__ float coefficients[DEGREE + 1];
__constant__ int scale = 3; // initialized at compile time; never copied

__global__ void evaluate(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float value = coefficients[DEGREE];
    for (int k = DEGREE - 1; k >= 0; --k) {
      value = value * x[i] + coefficients[k];
    }
    y[i] = scale * value;
  }
}

int main(void) {
  const int n = 10000;
  const float host_coefficients[DEGREE + 1] = {1.0f, -0.5f, 0.25f, 2.0f, -1.0f, 0.125f, 0.5f};
  CHECK(cudaMemcpyToSymbol(coefficients, host_coefficients, sizeof host_coefficients));
  float readback[DEGREE + 1];
  CHECK(cudaMemcpyFromSymbol(readback, coefficients, sizeof readback));

  float *x = (float *)malloc(n * sizeof(float));
  float *y = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    x[i] = -1.0f + 2.0f * (float)i / (float)n;
  }
  float *d_x, *d_y;
  CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CHECK(cudaMalloc(&d_y, n * sizeof(float)));
  CHECK(cudaMemcpy(d_x, x, n * sizeof(float), cudaMemcpyHostToDevice));
  evaluate<<<(n + 255) / 256, 256>>>(d_x, d_y, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(y, d_y, n * sizeof(float), cudaMemcpyDeviceToHost));

  int wrong = 0;
  for (int k = 0; k <= DEGREE; ++k) {
    wrong += readback[k] != host_coefficients[k];
  }
  for (int i = 0; i < n; ++i) {
    double expected = 0.0;
    for (int k = DEGREE; k >= 0; --k) {
      expected = expected * x[i] + host_coefficients[k];
    }
    expected *= 3;
    // A GPU may fuse multiply-adds: compare with a tolerance.
    if (fabs(y[i] - expected) > 1e-5 * (1.0 + fabs(expected))) {
      ++wrong;
    }
  }
  cudaFree(d_x);
  cudaFree(d_y);
  free(x);
  free(y);
  if (wrong != 0) {
    printf("FAIL constant_memory: %d wrong\n", wrong);
    return 1;
  }
  printf("PASS constant_memory\n");
  return 0;
}
