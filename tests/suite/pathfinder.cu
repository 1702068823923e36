// The cheapest path down a grid of weights (dynamic programming, as a path-finding benchmark does
// it): row by row, each column adds its weight to the least of the three costs above it. One
// launch a row; each block stages the previous row, with a column of halo on each side, in a
// dynamically sized `extern __shared__ int` array (the size is the launch's third argument).
// Checked against the CPU. Prints one PASS or FAIL line.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define COLS 5000
#define ROWS 120
#define BLOCK 256

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL pathfinder: %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__);      \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

__device__ __host__ inline int min3(int a, int b, int c) {
  int m = a < b ? a : b;
  return m < c ? m : c;
}

__global__ void next_row(const int *wall_row, const int *above, int *below, int cols) {
  extern __shared__ int prev[]; // blockDim.x + 2 costs: [0] and [blockDim.x + 1] are the halo
  int t = threadIdx.x, col = blockIdx.x * blockDim.x + t;
  prev[t + 1] = col < cols ? above[col] : 0;
  if (t == 0) {
    int left = col - 1;
    prev[0] = left >= 0 ? above[left] : 0x3fffffff;
  }
  if (t == blockDim.x - 1) {
    int right = col + 1;
    prev[blockDim.x + 1] = right < cols ? above[right] : 0x3fffffff;
  }
  __syncthreads();
  if (col < cols) {
    int left = col > 0 ? prev[t] : 0x3fffffff;
    int right = col < cols - 1 ? prev[t + 2] : 0x3fffffff;
    below[col] = wall_row[col] + min3(left, prev[t + 1], right);
  }
}

int main(void) {
  int *wall = (int *)malloc((size_t)ROWS * COLS * sizeof(int));
  int *result = (int *)malloc(COLS * sizeof(int));
  int *expected = (int *)malloc(COLS * sizeof(int));
  int *scratch = (int *)malloc(COLS * sizeof(int));
  unsigned seed = 8u;
  for (int i = 0; i < ROWS * COLS; i++) {
    seed = seed * 1664525u + 1013904223u;
    wall[i] = (int)((seed >> 16) % 10);
  }
  int *d_wall, *d_a, *d_b;
  CHECK(cudaMalloc((void **)&d_wall, (size_t)ROWS * COLS * sizeof(int)));
  CHECK(cudaMalloc((void **)&d_a, COLS * sizeof(int)));
  CHECK(cudaMalloc((void **)&d_b, COLS * sizeof(int)));
  CHECK(cudaMemcpy(d_wall, wall, (size_t)ROWS * COLS * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_a, wall, COLS * sizeof(int), cudaMemcpyHostToDevice)); // row 0
  int blocks = (COLS + BLOCK - 1) / BLOCK;
  size_t shared_bytes = (BLOCK + 2) * sizeof(int);
  for (int r = 1; r < ROWS; r++) {
    next_row<<<blocks, BLOCK, shared_bytes>>>(d_wall + (size_t)r * COLS, d_a, d_b, COLS);
    int *swap = d_a;
    d_a = d_b;
    d_b = swap;
  }
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(result, d_a, COLS * sizeof(int), cudaMemcpyDeviceToHost));

  for (int c = 0; c < COLS; c++) expected[c] = wall[c];
  for (int r = 1; r < ROWS; r++) {
    for (int c = 0; c < COLS; c++) {
      int left = c > 0 ? expected[c - 1] : 0x3fffffff;
      int right = c < COLS - 1 ? expected[c + 1] : 0x3fffffff;
      scratch[c] = wall[r * COLS + c] + min3(left, expected[c], right);
    }
    int *swap = expected;
    expected = scratch;
    scratch = swap;
  }
  int wrong = 0, best = expected[0];
  for (int c = 0; c < COLS; c++) {
    wrong += result[c] != expected[c];
    if (expected[c] < best) best = expected[c];
  }
  if (wrong == 0) {
    printf("PASS pathfinder: %d rows of %d columns, cheapest path %d, as the CPU's\n", ROWS, COLS,
           best);
  } else {
    printf("FAIL pathfinder: %d of %d costs differ from the CPU's\n", wrong, COLS);
  }
  cudaFree(d_wall);
  cudaFree(d_a);
  cudaFree(d_b);
  free(wall);
  free(result);
  free(expected);
  free(scratch);
  return wrong == 0 ? 0 : 1;
}
