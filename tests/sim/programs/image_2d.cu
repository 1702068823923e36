// A 2D kernel over an image: a grid of 16x16 blocks covers a width x height RGB image that is not
// a multiple of the block size; each thread converts one pixel to grey and a second kernel blurs
// the grey image with a 3x3 box filter (clamped at the edges).
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL %s:%d: %s\\n", __FILE__, __LINE__, cudaGetErrorString(err_));                   \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

__global__ void to_grey(const uchar3 *rgb, unsigned char *grey, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    uchar3 p = rgb[y * width + x];
    grey[y * width + x] = (unsigned char)((77 * p.x + 150 * p.y + 29 * p.z) >> 8);
  }
}

__global__ void box_blur(const unsigned char *in, unsigned char *out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) {
    return;
  }
  int total = 0;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      int sx = min(max(x + dx, 0), width - 1);
      int sy = min(max(y + dy, 0), height - 1);
      total += in[sy * width + sx];
    }
  }
  out[y * width + x] = (unsigned char)(total / 9);
}

static int clamp_index(int v, int limit) {
  return v < 0 ? 0 : (v >= limit ? limit - 1 : v);
}

int main(void) {
  const int width = 333, height = 197;
  const int pixels = width * height;
  uchar3 *rgb = (uchar3 *)malloc(pixels * sizeof(uchar3));
  for (int i = 0; i < pixels; ++i) {
    rgb[i] =
        make_uchar3((unsigned char)(i * 3), (unsigned char)(i / 7), (unsigned char)(255 - i % 256));
  }
  uchar3 *d_rgb;
  unsigned char *d_grey, *d_blur;
  CHECK(cudaMalloc(&d_rgb, pixels * sizeof(uchar3)));
  CHECK(cudaMalloc(&d_grey, pixels));
  CHECK(cudaMalloc(&d_blur, pixels));
  CHECK(cudaMemcpy(d_rgb, rgb, pixels * sizeof(uchar3), cudaMemcpyHostToDevice));

  dim3 block(16, 16);
  dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
  to_grey<<<grid, block>>>(d_rgb, d_grey, width, height);
  box_blur<<<grid, block>>>(d_grey, d_blur, width, height);
  CHECK(cudaGetLastError());
  unsigned char *grey = (unsigned char *)malloc(pixels);
  unsigned char *blur = (unsigned char *)malloc(pixels);
  CHECK(cudaMemcpy(grey, d_grey, pixels, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(blur, d_blur, pixels, cudaMemcpyDeviceToHost));

  int wrong = 0;
  for (int i = 0; i < pixels; ++i) {
    wrong += grey[i] != (unsigned char)((77 * rgb[i].x + 150 * rgb[i].y + 29 * rgb[i].z) >> 8);
  }
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      int total = 0;
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          total += grey[clamp_index(y + dy, height) * width + clamp_index(x + dx, width)];
        }
      }
      wrong += blur[y * width + x] != total / 9;
    }
  }
  cudaFree(d_rgb);
  cudaFree(d_grey);
  cudaFree(d_blur);
  free(rgb);
  free(grey);
  free(blur);
  if (wrong != 0) {
    printf("FAIL image_2d: %d pixels wrong\n", wrong);
    return 1;
  }
  printf("PASS image_2d\n");
  return 0;
}
