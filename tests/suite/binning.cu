// Grid binning of points (the first step of k-means or particle codes): each point's cell is
// `int cx = (x - x0) / cell_size;` (an implicit conversion) and `int cy = (int)fy;`, clamped to
// the grid afterwards. Some points are outliers far outside the grid, and some have a missing
// coordinate, stored as NaN. C leaves those conversions undefined; the cvt.rzi.s32.f32 that nvcc
// emits for both forms saturates (an outlier's cell is INT_MAX or INT_MIN, then clamped to the
// grid's edge) and gives 0 for NaN. The CPU reference spells the GPU's rule out. Prints one
// PASS or FAIL line.
#include <cuda_runtime.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define POINTS 20000
#define GRID 32
#define BLOCK 256

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL binning: %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__);         \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

__global__ void bin_points(const float *x, const float *y, int n, float x0, float y0,
                           float cell_size, int *cell, unsigned *counts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float fy = (y[i] - y0) / cell_size;
  int cx = (x[i] - x0) / cell_size; // an implicit conversion
  int cy = (int)fy;                 // a C cast of a variable
  if (cx < 0) cx = 0;
  if (cx > GRID - 1) cx = GRID - 1;
  if (cy < 0) cy = 0;
  if (cy > GRID - 1) cy = GRID - 1;
  cell[i] = cy * GRID + cx;
  atomicAdd(&counts[cy * GRID + cx], 1u);
}

// What cvt.rzi.s32.f32 gives, in C without undefined behaviour.
static int to_int(float f) {
  if (isnan(f)) return 0;
  if (f >= 2147483648.0f) return INT_MAX;
  if (f <= -2147483648.0f) return INT_MIN;
  return (int)f;
}

int main(void) {
  float *x = (float *)malloc(POINTS * sizeof(float)), *y = (float *)malloc(POINTS * sizeof(float));
  int *cell = (int *)malloc(POINTS * sizeof(int));
  unsigned counts[GRID * GRID], expected[GRID * GRID] = {0};
  unsigned seed = 77u;
  int outliers = 0, missing = 0;
  for (int i = 0; i < POINTS; i++) {
    seed = seed * 1664525u + 1013904223u;
    x[i] = (float)(seed >> 8) / 16777216.0f * 100.0f;
    seed = seed * 1664525u + 1013904223u;
    y[i] = (float)(seed >> 8) / 16777216.0f * 100.0f;
    if (i % 97 == 0) { // an outlier, far out on either side
      x[i] = (i % 2 ? 1.0f : -1.0f) * 1e12f;
      outliers++;
    }
    if (i % 89 == 0) { // far above
      y[i] = 1e12f;
      outliers++;
    }
    if (i % 131 == 0) { // a missing coordinate
      y[i] = NAN;
      missing++;
    }
  }
  const float x0 = 0.0f, y0 = 0.0f, cell_size = 100.0f / GRID;
  float *d_x, *d_y;
  int *d_cell;
  unsigned *d_counts;
  CHECK(cudaMalloc((void **)&d_x, POINTS * sizeof(float)));
  CHECK(cudaMalloc((void **)&d_y, POINTS * sizeof(float)));
  CHECK(cudaMalloc((void **)&d_cell, POINTS * sizeof(int)));
  CHECK(cudaMalloc((void **)&d_counts, sizeof counts));
  CHECK(cudaMemcpy(d_x, x, POINTS * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_y, y, POINTS * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_counts, 0, sizeof counts));
  bin_points<<<(POINTS + BLOCK - 1) / BLOCK, BLOCK>>>(d_x, d_y, POINTS, x0, y0, cell_size, d_cell,
                                                      d_counts);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(cell, d_cell, POINTS * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(counts, d_counts, sizeof counts, cudaMemcpyDeviceToHost));

  int wrong = 0;
  for (int i = 0; i < POINTS; i++) {
    int cx = to_int((x[i] - x0) / cell_size), cy = to_int((y[i] - y0) / cell_size);
    cx = cx < 0 ? 0 : cx > GRID - 1 ? GRID - 1 : cx;
    cy = cy < 0 ? 0 : cy > GRID - 1 ? GRID - 1 : cy;
    expected[cy * GRID + cx]++;
    wrong += cell[i] != cy * GRID + cx;
  }
  for (int c = 0; c < GRID * GRID; c++) wrong += counts[c] != expected[c];
  if (wrong == 0) {
    printf("PASS binning: %d points (%d outliers, %d with NaN) in the cells a GPU gives\n", POINTS,
           outliers, missing);
  } else {
    printf("FAIL binning: %d cells or counts differ from a GPU's\n", wrong);
  }
  cudaFree(d_x);
  cudaFree(d_y);
  cudaFree(d_cell);
  cudaFree(d_counts);
  free(x);
  free(y);
  free(cell);
  return wrong == 0 ? 0 : 1;
}
