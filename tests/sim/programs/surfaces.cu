// Surface objects as NVIDIA's simpleSurfaceWrite uses them: a CUDA array made with
// cudaArraySurfaceLoadStore, written by one kernel with surf2Dwrite (x in bytes), read back by
// another with surf2Dread and by a texture object over the same array, and copied out with
// cudaMemcpy2DFromArray. A 1-D array of uchar4 checks the boundary modes: zero (reads give 0,
// writes are dropped) and clamp (the nearest element). With an argument, one deliberate mistake:
// `trap` (a write past the array under the default cudaBoundaryModeTrap: the kernel fails, as a
// GPU's trap does), `no-flag` (a surface over an array made without the flag: refused) or
// `misaligned` (an x that is not a multiple of the access size, which PTX leaves undefined: the
// simulator stops the kernel, stricter than a GPU).
#include <cstdio>
#include <cstring>

#define W 5
#define H 3
#define N1 4

__global__ void write_2d(const float *in, cudaSurfaceObject_t surface) {
  int x = threadIdx.x, y = blockIdx.x;
  surf2Dwrite(in[y * W + x], surface, x * (int)sizeof(float), y);
}
__global__ void add_one_2d(cudaSurfaceObject_t surface) {
  int x = threadIdx.x, y = blockIdx.x;
  float v = surf2Dread<float>(surface, x * (int)sizeof(float), y);
  surf2Dwrite(v + 1.0f, surface, x * (int)sizeof(float), y);
}
__global__ void read_texture(cudaTextureObject_t tex, float *out) {
  int x = threadIdx.x, y = blockIdx.x;
  out[y * W + x] = tex2D<float>(tex, x + 0.5f, y + 0.5f);
}
// Thread i reads element i - 1 and writes element i - 1 (so thread 0 is out of range on the left,
// and the last thread past the right end), under the zero and the clamp modes.
__global__ void boundary_1d(cudaSurfaceObject_t surface, uchar4 *zero_read, uchar4 *clamp_read,
                            int n) {
  int i = threadIdx.x;
  int x = (i - 1) * (int)sizeof(uchar4);
  zero_read[i] = surf1Dread<uchar4>(surface, x, cudaBoundaryModeZero);
  int far = (i == 0 ? -3 : n + 2) * (int)sizeof(uchar4); // outside either way
  clamp_read[i] =
      surf1Dread<uchar4>(surface, i == 0 || i == n + 1 ? far : x, cudaBoundaryModeClamp);
}
__global__ void write_outside_zero(cudaSurfaceObject_t surface, int n) {
  surf1Dwrite(make_uchar4(9, 9, 9, 9), surface, (n + threadIdx.x) * (int)sizeof(uchar4),
              cudaBoundaryModeZero);
}
__global__ void write_misaligned(cudaSurfaceObject_t surface) {
  surf2Dwrite(1.0f, surface, 2, 0); // x is in bytes: 2 is not a multiple of sizeof(float)
}
__global__ void write_past_end(cudaSurfaceObject_t surface) {
  surf2Dwrite(1.0f, surface, W * (int)sizeof(float), 0); // one float past the first row
}

static int failures = 0;
static void expect(const char *what, int k, int got, int want) {
  if (got != want) {
    std::printf("FAIL %s[%d]: got %d, want %d\n", what, k, got, want);
    ++failures;
  }
}
static int pack(uchar4 v) {
  return v.x | v.y << 8 | v.z << 16 | v.w << 24;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t array;
  if (std::strcmp(mode, "no-flag") == 0) {
    cudaMallocArray(&array, &desc, W, H);
    cudaResourceDesc res;
    std::memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    cudaSurfaceObject_t surface;
    cudaError_t e = cudaCreateSurfaceObject(&surface, &res);
    std::printf("no flag: %s\n", e == cudaSuccess ? "accepted" : "refused");
    return 0;
  }
  cudaMallocArray(&array, &desc, W, H, cudaArraySurfaceLoadStore);
  cudaResourceDesc res;
  std::memset(&res, 0, sizeof res);
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaSurfaceObject_t surface;
  if (cudaCreateSurfaceObject(&surface, &res) != cudaSuccess) {
    std::printf("FAIL cudaCreateSurfaceObject\n");
    return 1;
  }
  if (std::strcmp(mode, "misaligned") == 0) {
    write_misaligned<<<1, 1>>>(surface);
    cudaError_t e = cudaDeviceSynchronize();
    std::printf("misaligned: %s\n", e == cudaSuccess ? "no error" : "the kernel failed");
    return 0;
  }
  if (std::strcmp(mode, "trap") == 0) {
    write_past_end<<<1, 1>>>(surface);
    cudaError_t e = cudaDeviceSynchronize();
    std::printf("trap: %s\n", e == cudaSuccess ? "no error" : "the kernel failed");
    return 0;
  }

  float host[W * H], *in, *out;
  for (int i = 0; i < W * H; ++i) host[i] = (float)(i * 3 - 7);
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, sizeof host);
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  write_2d<<<H, W>>>(in, surface);
  add_one_2d<<<H, W>>>(surface);

  cudaTextureDesc td;
  std::memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex;
  cudaCreateTextureObject(&tex, &res, &td, NULL);
  read_texture<<<H, W>>>(tex, out);

  float copied[W * H], fetched[W * H];
  cudaMemcpy2DFromArray(copied, W * sizeof(float), array, 0, 0, W * sizeof(float), H,
                        cudaMemcpyDeviceToHost);
  cudaMemcpy(fetched, out, sizeof fetched, cudaMemcpyDeviceToHost);
  for (int i = 0; i < W * H; ++i) {
    expect("surface 2D, copied out", i, (int)copied[i], i * 3 - 7 + 1);
    expect("surface 2D, read by tex2D", i, (int)fetched[i], i * 3 - 7 + 1);
  }

  // 1-D, uchar4: elements 10k + (1, 2, 3, 4).
  cudaChannelFormatDesc desc4 = cudaCreateChannelDesc<uchar4>();
  cudaArray_t line;
  cudaMallocArray(&line, &desc4, N1, 0, cudaArraySurfaceLoadStore);
  uchar4 elements[N1];
  for (int k = 0; k < N1; ++k)
    elements[k] = make_uchar4(10 * k + 1, 10 * k + 2, 10 * k + 3, 10 * k + 4);
  cudaMemcpy2DToArray(line, 0, 0, elements, sizeof elements, sizeof elements, 1,
                      cudaMemcpyHostToDevice);
  cudaResourceDesc res1;
  std::memset(&res1, 0, sizeof res1);
  res1.resType = cudaResourceTypeArray;
  res1.res.array.array = line;
  cudaSurfaceObject_t surface1;
  cudaCreateSurfaceObject(&surface1, &res1);
  uchar4 *zero_read, *clamp_read;
  cudaMalloc(&zero_read, (N1 + 2) * sizeof(uchar4));
  cudaMalloc(&clamp_read, (N1 + 2) * sizeof(uchar4));
  boundary_1d<<<1, N1 + 2>>>(surface1, zero_read, clamp_read, N1);
  write_outside_zero<<<1, 2>>>(surface1, N1);
  uchar4 zero_host[N1 + 2], clamp_host[N1 + 2], after[N1];
  cudaMemcpy(zero_host, zero_read, sizeof zero_host, cudaMemcpyDeviceToHost);
  cudaMemcpy(clamp_host, clamp_read, sizeof clamp_host, cudaMemcpyDeviceToHost);
  cudaMemcpy2DFromArray(after, sizeof after, line, 0, 0, sizeof after, 1, cudaMemcpyDeviceToHost);
  for (int i = 0; i < N1 + 2; ++i) {
    int k = i - 1;
    expect("zero mode read", i, pack(zero_host[i]), k >= 0 && k < N1 ? pack(elements[k]) : 0);
    int nearest = k < 0 ? 0 : (k >= N1 ? N1 - 1 : k);
    expect("clamp mode read", i, pack(clamp_host[i]), pack(elements[nearest]));
  }
  for (int k = 0; k < N1; ++k)
    expect("zero mode write dropped", k, pack(after[k]), pack(elements[k]));

  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("FAIL %s\n", cudaGetErrorString(e));
    ++failures;
  }
  cudaDestroyTextureObject(tex);
  cudaDestroySurfaceObject(surface);
  cudaDestroySurfaceObject(surface1);
  cudaFreeArray(array);
  cudaFreeArray(line);
  cudaFree(in);
  cudaFree(out);
  cudaFree(zero_read);
  cudaFree(clamp_read);
  std::printf("%s surfaces\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
