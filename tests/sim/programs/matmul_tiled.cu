// Matrix multiplication C = A * B with square tiles staged in shared memory. The sizes are not
// multiples of the tile, so edge tiles are padded with zeros.
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define TILE 16

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL %s:%d: %s\\n", __FILE__, __LINE__, cudaGetErrorString(err_));                   \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

// A is rows x inner, B is inner x cols, C is rows x cols, all row-major.
__global__ void matmul(const float *a, const float *b, float *c, int rows, int inner, int cols) {
  __shared__ float a_tile[TILE][TILE];
  __shared__ float b_tile[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float total = 0.0f;

  for (int start = 0; start < inner; start += TILE) {
    int a_col = start + threadIdx.x;
    int b_row = start + threadIdx.y;
    a_tile[threadIdx.y][threadIdx.x] =
        (row < rows && a_col < inner) ? a[row * inner + a_col] : 0.0f;
    b_tile[threadIdx.y][threadIdx.x] = (b_row < inner && col < cols) ? b[b_row * cols + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) {
      total += a_tile[threadIdx.y][k] * b_tile[k][threadIdx.x];
    }
    __syncthreads();
  }
  if (row < rows && col < cols) {
    c[row * cols + col] = total;
  }
}

int main(void) {
  const int rows = 100, inner = 75, cols = 130;
  float *a = (float *)malloc(rows * inner * sizeof(float));
  float *b = (float *)malloc(inner * cols * sizeof(float));
  float *c = (float *)malloc(rows * cols * sizeof(float));
  for (int i = 0; i < rows * inner; ++i) {
    a[i] = (float)((i % 13) - 6) / 4.0f;
  }
  for (int i = 0; i < inner * cols; ++i) {
    b[i] = (float)((i % 7) - 3) / 2.0f;
  }

  float *d_a, *d_b, *d_c;
  CHECK(cudaMalloc(&d_a, rows * inner * sizeof(float)));
  CHECK(cudaMalloc(&d_b, inner * cols * sizeof(float)));
  CHECK(cudaMalloc(&d_c, rows * cols * sizeof(float)));
  CHECK(cudaMemcpy(d_a, a, rows * inner * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_b, b, inner * cols * sizeof(float), cudaMemcpyHostToDevice));

  dim3 block(TILE, TILE);
  dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
  matmul<<<grid, block>>>(d_a, d_b, d_c, rows, inner, cols);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(c, d_c, rows * cols * sizeof(float), cudaMemcpyDeviceToHost));

  // The inputs are small multiples of 1/4 and 1/2, so every partial sum is exact.
  int wrong = 0;
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) {
      float expected = 0.0f;
      for (int k = 0; k < inner; ++k) {
        expected += a[i * inner + k] * b[k * cols + j];
      }
      if (c[i * cols + j] != expected) {
        ++wrong;
      }
    }
  }
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_c);
  free(a);
  free(b);
  free(c);
  if (wrong != 0) {
    printf("FAIL matmul_tiled: %d of %d entries wrong\n", wrong, rows * cols);
    return 1;
  }
  printf("PASS matmul_tiled\n");
  return 0;
}
