// Nearest neighbours: the distance of every record (a latitude and a longitude) to a target on
// the GPU, then the NEAREST closest picked on the host. Its sizes come from nn_config.h, which
// the build line includes (-include). Like the program it imitates, the host names its grid
// `gridDim`: in host code that is an ordinary variable, the built-in exists only in device code.
// Built with --use_fast_math, so the distances are compared with the CPU's within a tolerance.
// Prints one PASS or FAIL line.
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef REC_COUNT
#error "build with -include nn_config.h"
#endif

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL nn: %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__);              \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

typedef struct {
  float lat, lng;
} LatLong;

__global__ void euclid(const LatLong *records, float *distances, int n, float lat, float lng) {
  // A 2D grid of 1D blocks, as the program it imitates lays it out.
  int id = blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) + threadIdx.x;
  if (id < n) {
    float dlat = lat - records[id].lat, dlng = lng - records[id].lng;
    distances[id] = sqrtf(dlat * dlat + dlng * dlng);
  }
}

// The k smallest of distances, by selection (k is small).
static void nearest(const float *distances, int n, int k, float *best) {
  for (int j = 0; j < k; j++) best[j] = INFINITY;
  for (int i = 0; i < n; i++) {
    float d = distances[i];
    if (d >= best[k - 1]) continue;
    int j = k - 1;
    while (j > 0 && best[j - 1] > d) {
      best[j] = best[j - 1];
      j--;
    }
    best[j] = d;
  }
}

int main(void) {
  LatLong *records = (LatLong *)malloc(REC_COUNT * sizeof(LatLong));
  float *distances = (float *)malloc(REC_COUNT * sizeof(float));
  float *expected = (float *)malloc(REC_COUNT * sizeof(float));
  unsigned seed = 42u;
  for (int i = 0; i < REC_COUNT; i++) {
    seed = seed * 1664525u + 1013904223u;
    records[i].lat = 7.0f + (float)(seed >> 8) / 16777216.0f * 56.0f;
    seed = seed * 1664525u + 1013904223u;
    records[i].lng = 15.0f + (float)(seed >> 8) / 16777216.0f * 150.0f;
    float dlat = TARGET_LAT - records[i].lat, dlng = TARGET_LNG - records[i].lng;
    expected[i] = sqrtf(dlat * dlat + dlng * dlng);
  }

  // The host's own gridDim, as in the original program.
  int blocks = (REC_COUNT + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK;
  int x_blocks = blocks > 65535 ? 65535 : blocks;
  int y_blocks = (blocks + x_blocks - 1) / x_blocks;
  dim3 gridDim(x_blocks, y_blocks);
  dim3 threadsPerBlock(THREADS_PER_BLOCK);

  LatLong *d_records;
  float *d_distances;
  CHECK(cudaMalloc((void **)&d_records, REC_COUNT * sizeof(LatLong)));
  CHECK(cudaMalloc((void **)&d_distances, REC_COUNT * sizeof(float)));
  CHECK(cudaMemcpy(d_records, records, REC_COUNT * sizeof(LatLong), cudaMemcpyHostToDevice));
  euclid<<<gridDim, threadsPerBlock>>>(d_records, d_distances, REC_COUNT, TARGET_LAT, TARGET_LNG);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(distances, d_distances, REC_COUNT * sizeof(float), cudaMemcpyDeviceToHost));

  float best[NEAREST], best_expected[NEAREST];
  nearest(distances, REC_COUNT, NEAREST, best);
  nearest(expected, REC_COUNT, NEAREST, best_expected);
  int wrong = 0;
  for (int i = 0; i < REC_COUNT; i++) {
    if (fabsf(distances[i] - expected[i]) > 1e-5f * expected[i] + 1e-6f) wrong++;
  }
  for (int j = 0; j < NEAREST; j++) {
    if (fabsf(best[j] - best_expected[j]) > 1e-5f * best_expected[j] + 1e-6f) wrong++;
  }
  if (wrong == 0) {
    printf("PASS nn: the %d nearest of %d records (the closest at %.4f), as the CPU finds them\n",
           NEAREST, REC_COUNT, best[0]);
  } else {
    printf("FAIL nn: %d distances differ from the CPU's\n", wrong);
  }
  cudaFree(d_records);
  cudaFree(d_distances);
  free(records);
  free(distances);
  free(expected);
  return wrong == 0 ? 0 : 1;
}
