// Vector addition: one thread per element, a grid-stride loop, and a check on the host.
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));                    \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

__global__ void add_vectors(const float *a, const float *b, float *sum, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    sum[i] = a[i] + b[i];
  }
}

int main(void) {
  const int n = 1 << 20;
  const size_t bytes = n * sizeof(float);
  float *a = (float *)malloc(bytes);
  float *b = (float *)malloc(bytes);
  float *sum = (float *)malloc(bytes);
  for (int i = 0; i < n; ++i) {
    a[i] = sinf((float)i) * sinf((float)i);
    b[i] = cosf((float)i) * cosf((float)i);
  }

  float *d_a, *d_b, *d_sum;
  CHECK(cudaMalloc(&d_a, bytes));
  CHECK(cudaMalloc(&d_b, bytes));
  CHECK(cudaMalloc(&d_sum, bytes));
  CHECK(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice));

  const int threads_per_block = 256;
  const int blocks = (n + threads_per_block - 1) / threads_per_block;
  add_vectors<<<blocks, threads_per_block>>>(d_a, d_b, d_sum, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(sum, d_sum, bytes, cudaMemcpyDeviceToHost));

  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    if (sum[i] != a[i] + b[i] || fabsf(sum[i] - 1.0f) > 1e-5f) {
      ++wrong;
    }
  }
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  CHECK(cudaFree(d_sum));
  free(a);
  free(b);
  free(sum);
  if (wrong != 0) {
    printf("FAIL vector_add: %d of %d sums wrong\n", wrong, n);
    return 1;
  }
  printf("PASS vector_add\n");
  return 0;
}
