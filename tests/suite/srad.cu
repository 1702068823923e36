// Speckle-reducing image statistics, then 8-bit-style quantization (the style of an image
// benchmark): one kernel finds each 16x16 tile's minimum, maximum and mean in shared memory, a
// second stretches each pixel to its tile's range and converts it to integers. Flat tiles give
// 0/0 = NaN, and some scales overflow an int: C leaves those conversions undefined, the PTX ISA
// does not (cvt.rzi saturates to the type's range, and NaN gives 0), so a GPU's answers are
// fixed, and the CPU reference spells that rule out. Prints one PASS or FAIL line.
#include <cuda_runtime.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define SIZE 256
#define TILE 16
#define TILES (SIZE / TILE)

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL srad: %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__);            \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

// One block per tile, one thread per pixel.
__global__ void tile_statistics(const float *image, float *lo, float *hi, float *mean) {
  __shared__ float s_lo[TILE * TILE], s_hi[TILE * TILE], s_sum[TILE * TILE];
  int t = threadIdx.y * TILE + threadIdx.x;
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float v = image[row * SIZE + col];
  s_lo[t] = v;
  s_hi[t] = v;
  s_sum[t] = v;
  __syncthreads();
  for (int stride = TILE * TILE / 2; stride > 0; stride /= 2) {
    if (t < stride) {
      s_lo[t] = fminf(s_lo[t], s_lo[t + stride]);
      s_hi[t] = fmaxf(s_hi[t], s_hi[t + stride]);
      s_sum[t] += s_sum[t + stride];
    }
    __syncthreads();
  }
  if (t == 0) {
    int tile = blockIdx.y * TILES + blockIdx.x;
    lo[tile] = s_lo[0];
    hi[tile] = s_hi[0];
    mean[tile] = s_sum[0] / (TILE * TILE);
  }
}

__global__ void quantize(const float *image, const float *lo, const float *hi, const float *mean,
                         int *level, unsigned *above, long long *fine) {
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  int tile = blockIdx.y * TILES + blockIdx.x, i = row * SIZE + col;
  float v = image[i];
  level[i] = (int)((v - lo[tile]) / (hi[tile] - lo[tile]) * 255.0f); // flat tile: NaN, gives 0
  above[i] = (unsigned)(v - mean[tile]);                             // below the mean: 0
  fine[i] = (long long)(v * 1e17f);                                  // past 2^63: saturates
}

// What cvt.rzi gives, in C without undefined behaviour.
static int to_int(float f) {
  if (isnan(f)) return 0;
  if (f >= 2147483648.0f) return INT_MAX;
  if (f <= -2147483648.0f) return INT_MIN;
  return (int)f;
}
static unsigned to_unsigned(float f) {
  if (isnan(f) || f <= 0.0f) return 0;
  if (f >= 4294967296.0f) return UINT_MAX;
  return (unsigned)f;
}
static long long to_long_long(float f) {
  if (isnan(f)) return 0;
  if (f >= 9223372036854775808.0f) return LLONG_MAX;
  if (f <= -9223372036854775808.0f) return LLONG_MIN;
  return (long long)f;
}

int main(void) {
  size_t pixels = SIZE * SIZE;
  float *image = (float *)malloc(pixels * sizeof(float));
  int *level = (int *)malloc(pixels * sizeof(int));
  unsigned *above = (unsigned *)malloc(pixels * sizeof(unsigned));
  long long *fine = (long long *)malloc(pixels * sizeof(long long));
  unsigned seed = 11u;
  for (int r = 0; r < SIZE; r++) {
    for (int c = 0; c < SIZE; c++) {
      seed = seed * 1664525u + 1013904223u;
      int tile = (r / TILE) * TILES + c / TILE;
      // Whole numbers, so sums are exact; every fifth tile is flat (its range is 0).
      image[r * SIZE + c] = tile % 5 == 0 ? 100.0f : (float)(30 + (seed >> 24) % 200);
    }
  }
  float *d_image, *d_lo, *d_hi, *d_mean;
  int *d_level;
  unsigned *d_above;
  long long *d_fine;
  CHECK(cudaMalloc((void **)&d_image, pixels * sizeof(float)));
  CHECK(cudaMalloc((void **)&d_lo, TILES * TILES * sizeof(float)));
  CHECK(cudaMalloc((void **)&d_hi, TILES * TILES * sizeof(float)));
  CHECK(cudaMalloc((void **)&d_mean, TILES * TILES * sizeof(float)));
  CHECK(cudaMalloc((void **)&d_level, pixels * sizeof(int)));
  CHECK(cudaMalloc((void **)&d_above, pixels * sizeof(unsigned)));
  CHECK(cudaMalloc((void **)&d_fine, pixels * sizeof(long long)));
  CHECK(cudaMemcpy(d_image, image, pixels * sizeof(float), cudaMemcpyHostToDevice));
  dim3 grid(TILES, TILES), block(TILE, TILE);
  tile_statistics<<<grid, block>>>(d_image, d_lo, d_hi, d_mean);
  CHECK(cudaGetLastError());
  quantize<<<grid, block>>>(d_image, d_lo, d_hi, d_mean, d_level, d_above, d_fine);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(level, d_level, pixels * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(above, d_above, pixels * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(fine, d_fine, pixels * sizeof(long long), cudaMemcpyDeviceToHost));

  int wrong = 0, nan_pixels = 0, saturated = 0;
  for (int ty = 0; ty < TILES; ty++) {
    for (int tx = 0; tx < TILES; tx++) {
      float lo = INFINITY, hi = -INFINITY, sum = 0;
      for (int r = ty * TILE; r < (ty + 1) * TILE; r++) {
        for (int c = tx * TILE; c < (tx + 1) * TILE; c++) {
          float v = image[r * SIZE + c];
          lo = fminf(lo, v);
          hi = fmaxf(hi, v);
          sum += v;
        }
      }
      float mean = sum / (TILE * TILE);
      for (int r = ty * TILE; r < (ty + 1) * TILE; r++) {
        for (int c = tx * TILE; c < (tx + 1) * TILE; c++) {
          int i = r * SIZE + c;
          float v = image[i], stretched = (v - lo) / (hi - lo) * 255.0f;
          nan_pixels += isnan(stretched);
          saturated += v * 1e17f >= 9223372036854775808.0f;
          wrong += level[i] != to_int(stretched);
          wrong += above[i] != to_unsigned(v - mean);
          wrong += fine[i] != to_long_long(v * 1e17f);
        }
      }
    }
  }
  if (wrong == 0) {
    printf("PASS srad: %d pixels (%d NaN, %d past 2^63) converted as cvt.rzi does\n", (int)pixels,
           nan_pixels, saturated);
  } else {
    printf("FAIL srad: %d conversions differ from a GPU's\n", wrong);
  }
  cudaFree(d_image);
  cudaFree(d_lo);
  cudaFree(d_hi);
  cudaFree(d_mean);
  cudaFree(d_level);
  cudaFree(d_above);
  cudaFree(d_fine);
  free(image);
  free(level);
  free(above);
  free(fine);
  return wrong == 0 ? 0 : 1;
}
