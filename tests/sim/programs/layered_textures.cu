// Layered and cubemap textures as NVIDIA's simpleLayeredTexture and simpleCubemapTexture use
// them: cudaMalloc3DArray with cudaArrayLayered or cudaArrayCubemap, filled by cudaMemcpy3D from
// host memory, read in kernels with tex2DLayered and texCubemap, and copied back by cudaMemcpy3D
// with offsets. Texel (i, j) of layer (or face) k holds 100k + 10j + i. Point reads at texel
// centres are exact; a linear read between two texels of a layer is their mean (weight 1/2, exact
// in a GPU's 8-bit weights too) and never blends in the next layer. With the argument
// `not-layered`, a kernel reads the layered texture with tex2D: a mistake (the simulator stops it);
// with `layer-out-of-range`, one block reads layer L of L layers (the simulator stops it: stricter
// than a GPU, whose answer there is not documented). With `x-in-bytes`, the copy back gives the
// host side's x in bytes: refused with cudaErrorInvalidValue, as an H100 refused it.
#include <cstdio>
#include <cstring>

#define W 4
#define H 3
#define L 3
#define C 4 /* cubemap faces are C x C */

__global__ void read_layers(cudaTextureObject_t tex, float *out) {
  int i = threadIdx.x, j = threadIdx.y, k = blockIdx.x;
  out[(k * H + j) * W + i] = tex2DLayered<float>(tex, i + 0.5f, j + 0.5f, k);
}
// Between texels (1, 2) and (2, 2) of each layer, and at the bottom edge (clamped).
__global__ void read_between(cudaTextureObject_t tex, float *out) {
  int k = threadIdx.x;
  out[2 * k] = tex2DLayered<float>(tex, 2.0f, 2.5f, k);
  out[2 * k + 1] = tex2DLayered<float>(tex, 0.5f, 3.5f, k);
}
// The direction through the centre of texel (i, j) of each face, as the Programming Guide's
// cubemap table maps faces: +x, -x, +y, -y, +z, -z.
__global__ void read_cubemap(cudaTextureObject_t tex, float *out) {
  int i = threadIdx.x, j = threadIdx.y, face = blockIdx.x;
  float u = ((i + 0.5f) / C) * 2.0f - 1.0f, v = ((j + 0.5f) / C) * 2.0f - 1.0f;
  float x, y, z;
  switch (face) {
  case 0:
    x = 1;
    y = -v;
    z = -u;
    break;
  case 1:
    x = -1;
    y = -v;
    z = u;
    break;
  case 2:
    x = u;
    y = 1;
    z = v;
    break;
  case 3:
    x = u;
    y = -1;
    z = -v;
    break;
  case 4:
    x = u;
    y = -v;
    z = 1;
    break;
  default:
    x = -u;
    y = -v;
    z = -1;
    break;
  }
  out[(face * C + j) * C + i] = texCubemap<float>(tex, x, y, z);
}
__global__ void read_as_2d(cudaTextureObject_t tex, float *out) {
  out[0] = tex2D<float>(tex, 0.5f, 0.5f);
}

static int failures = 0;
static void expect(const char *what, int k, float got, float want) {
  if (got != want) {
    std::printf("FAIL %s[%d]: got %g, want %g\n", what, k, got, want);
    ++failures;
  }
}

static cudaTextureObject_t texture_over(cudaArray_t array, cudaTextureFilterMode filter,
                                        int normalized) {
  cudaResourceDesc res;
  std::memset(&res, 0, sizeof res);
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaTextureDesc td;
  std::memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = filter;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = normalized;
  cudaTextureObject_t tex;
  cudaCreateTextureObject(&tex, &res, &td, NULL);
  return tex;
}

int main(int argc, char **argv) {
  float host[L * H * W], cube[6 * C * C], back[L * H * W], *out;
  for (int k = 0; k < L; ++k)
    for (int j = 0; j < H; ++j)
      for (int i = 0; i < W; ++i) host[(k * H + j) * W + i] = (float)(100 * k + 10 * j + i);
  for (int f = 0; f < 6; ++f)
    for (int j = 0; j < C; ++j)
      for (int i = 0; i < C; ++i) cube[(f * C + j) * C + i] = (float)(100 * f + 10 * j + i);
  cudaMalloc(&out, sizeof cube);
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();

  cudaArray_t layers;
  cudaMalloc3DArray(&layers, &desc, make_cudaExtent(W, H, L), cudaArrayLayered);
  cudaMemcpy3DParms copy;
  std::memset(&copy, 0, sizeof copy);
  copy.srcPtr = make_cudaPitchedPtr(host, W * sizeof(float), W, H);
  copy.dstArray = layers;
  copy.extent = make_cudaExtent(W, H, L);
  copy.kind = cudaMemcpyHostToDevice;
  if (cudaMemcpy3D(&copy) != cudaSuccess) {
    std::printf("FAIL cudaMemcpy3D to the layered array\n");
    return 1;
  }
  cudaTextureObject_t point = texture_over(layers, cudaFilterModePoint, 0);
  if (argc > 1 && std::strcmp(argv[1], "not-layered") == 0) {
    read_as_2d<<<1, 1>>>(point, out);
    cudaError_t e = cudaDeviceSynchronize();
    std::printf("tex2D of a layered texture: %s\n", e == cudaSuccess ? "no error" : "failed");
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "layer-out-of-range") == 0) {
    read_layers<<<L + 1, dim3(W, H)>>>(point, out); // block L reads a layer that does not exist
    cudaError_t e = cudaDeviceSynchronize();
    std::printf("layer out of range: %s\n", e == cudaSuccess ? "no error" : "failed");
    return 0;
  }
  read_layers<<<L, dim3(W, H)>>>(point, out);
  float got[L * H * W];
  cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
  for (int n = 0; n < L * H * W; ++n) expect("tex2DLayered", n, got[n], host[n]);

  cudaTextureObject_t linear = texture_over(layers, cudaFilterModeLinear, 0);
  read_between<<<1, L>>>(linear, out);
  float between[2 * L];
  cudaMemcpy(between, out, sizeof between, cudaMemcpyDeviceToHost);
  for (int k = 0; k < L; ++k) {
    expect("linear between texels", k, between[2 * k], 100.0f * k + 20 + 1.5f);
    expect("linear clamped at the layer's edge", k, between[2 * k + 1], 100.0f * k + 20);
  }

  // Back to the host: layers 1-2, rows 1-2, columns 1-3, into a buffer at the same offsets. With
  // a CUDA array in the copy, the host side's position counts the array's elements too, x
  // included: (1, 1, 1), not (4 bytes, 1, 1). An H100 refused the byte offset (4 floats in, then
  // 3 more, in a row of 4) with cudaErrorInvalidValue and copied nothing; so does the simulator.
  std::memset(back, 0, sizeof back);
  std::memset(&copy, 0, sizeof copy);
  copy.srcArray = layers;
  copy.srcPos = make_cudaPos(1, 1, 1);
  copy.dstPtr = make_cudaPitchedPtr(back, W * sizeof(float), W, H);
  copy.dstPos = make_cudaPos(1 * sizeof(float), 1, 1);
  copy.extent = make_cudaExtent(W - 1, H - 1, L - 1);
  copy.kind = cudaMemcpyDeviceToHost;
  if (argc > 1 && std::strcmp(argv[1], "x-in-bytes") == 0) {
    cudaError_t e = cudaMemcpy3D(&copy);
    std::printf("x in bytes: %s\n", cudaGetErrorName(e));
    return 0;
  }
  copy.dstPos = make_cudaPos(1, 1, 1);
  expect("cudaMemcpy3D back with offsets", -1, (float)cudaMemcpy3D(&copy), (float)cudaSuccess);
  for (int k = 0; k < L; ++k)
    for (int j = 0; j < H; ++j)
      for (int i = 0; i < W; ++i) {
        int n = (k * H + j) * W + i;
        expect("cudaMemcpy3D back with offsets", n, back[n], k && j && i ? host[n] : 0.0f);
      }

  cudaArray_t cubemap;
  cudaMalloc3DArray(&cubemap, &desc, make_cudaExtent(C, C, 6), cudaArrayCubemap);
  std::memset(&copy, 0, sizeof copy);
  copy.srcPtr = make_cudaPitchedPtr(cube, C * sizeof(float), C, C);
  copy.dstArray = cubemap;
  copy.extent = make_cudaExtent(C, C, 6);
  copy.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3D(&copy);
  cudaTextureObject_t cube_tex = texture_over(cubemap, cudaFilterModeLinear, 1);
  read_cubemap<<<6, dim3(C, C)>>>(cube_tex, out);
  float faces[6 * C * C];
  cudaMemcpy(faces, out, sizeof faces, cudaMemcpyDeviceToHost);
  for (int n = 0; n < 6 * C * C; ++n) expect("texCubemap", n, faces[n], cube[n]);

  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("FAIL %s\n", cudaGetErrorString(e));
    ++failures;
  }
  cudaDestroyTextureObject(point);
  cudaDestroyTextureObject(linear);
  cudaDestroyTextureObject(cube_tex);
  cudaFreeArray(layers);
  cudaFreeArray(cubemap);
  cudaFree(out);
  std::printf("%s layered_textures\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
