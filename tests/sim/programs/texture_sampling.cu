// Texture objects as the CUDA samples use them: a 2-D float cudaArray read with tex2D (point and
// linear filtering, clamp and border), a 1-D array with normalized coordinates (wrap, mirror),
// 8-bit texels read as normalized floats, a pitched 2-D texture, and tex1Dfetch of linear memory.
// Linear filtering on a GPU uses 8-bit fractional weights, so it is checked with a tolerance of
// 1/256 of the neighbouring texels' difference.
#include <cmath>
#include <cstdio>

#define W 4
#define H 3
#define SAMPLES 16

struct sample {
  float x, y;
};

__global__ void read_2d(cudaTextureObject_t tex, const sample *at, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(tex, at[i].x, at[i].y);
}
__global__ void read_1d(cudaTextureObject_t tex, const float *at, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(tex, at[i]);
}
__global__ void read_uchar4(cudaTextureObject_t tex, const float *at, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float4>(tex, at[i]);
}
__global__ void fetch_ints(cudaTextureObject_t tex, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<int>(tex, i - 2); // two below the start, two past the end
}

static float texel(int i, int j) {
  return (float)(i * i + 10 * j);
}

static int failures = 0;
static void expect(const char *what, int k, float got, float want, float tolerance) {
  if (std::fabs(got - want) > tolerance) {
    if (failures < 10)
      printf("FAIL texture_sampling: %s, sample %d: %g, want %g (tolerance %g)\n", what, k, got,
             want, tolerance);
    failures++;
  }
}

static cudaTextureObject_t make_texture(cudaArray_t array, cudaTextureFilterMode filter,
                                        cudaTextureAddressMode mode, int normalized,
                                        cudaTextureReadMode read, float border) {
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaTextureDesc desc = {};
  desc.addressMode[0] = desc.addressMode[1] = mode;
  desc.filterMode = filter;
  desc.readMode = read;
  desc.normalizedCoords = normalized;
  desc.borderColor[0] = border;
  cudaTextureObject_t tex = 0;
  if (cudaCreateTextureObject(&tex, &res, &desc, NULL) != cudaSuccess) {
    printf("FAIL texture_sampling: cudaCreateTextureObject\n");
    failures++;
  }
  return tex;
}

// Linear interpolation as the Programming Guide writes it, with exact weights.
static float lerp_want(float (*t)(int, int), float x, float y, int clamp_w, int clamp_h) {
  float xb = x - 0.5f, yb = y - 0.5f;
  int i = (int)std::floor(xb), j = (int)std::floor(yb);
  float a = xb - (float)i, b = yb - (float)j;
  int i0 = i < 0 ? 0 : i, i1 = i + 1 >= clamp_w ? clamp_w - 1 : i + 1;
  int j0 = j < 0 ? 0 : j, j1 = j + 1 >= clamp_h ? clamp_h - 1 : j + 1;
  return (1 - a) * (1 - b) * t(i0, j0) + a * (1 - b) * t(i1, j0) + (1 - a) * b * t(i0, j1) +
         a * b * t(i1, j1);
}

int main() {
  // A 2-D float array, texel (i, j) = i * i + 10 j.
  float host[H][W];
  for (int j = 0; j < H; j++)
    for (int i = 0; i < W; i++) host[j][i] = texel(i, j);
  cudaChannelFormatDesc fdesc = cudaCreateChannelDesc<float>();
  cudaArray_t array2d = NULL;
  cudaMallocArray(&array2d, &fdesc, W, H);
  cudaMemcpy2DToArray(array2d, 0, 0, host, W * sizeof(float), W * sizeof(float), H,
                      cudaMemcpyHostToDevice);

  sample *at = NULL;
  float *out = NULL, *at1 = NULL;
  cudaMallocManaged((void **)&at, SAMPLES * sizeof(sample));
  cudaMallocManaged((void **)&at1, SAMPLES * sizeof(float));
  cudaMallocManaged((void **)&out, SAMPLES * sizeof(float));

  // Point sampling, clamp: texel centres, and points outside the texture.
  const sample point_at[6] = {{0.5f, 0.5f},  {3.5f, 2.5f}, {2.9f, 1.1f},
                              {-3.0f, 1.5f}, {9.0f, 0.2f}, {1.5f, 7.0f}};
  const float point_want[6] = {texel(0, 0), texel(3, 2), texel(2, 1),
                               texel(0, 1), texel(3, 0), texel(1, 2)};
  cudaTextureObject_t point = make_texture(array2d, cudaFilterModePoint, cudaAddressModeClamp, 0,
                                           cudaReadModeElementType, 0);
  for (int k = 0; k < 6; k++) at[k] = point_at[k];
  read_2d<<<1, 32>>>(point, at, out, 6);
  cudaDeviceSynchronize();
  for (int k = 0; k < 6; k++) expect("tex2D point clamp", k, out[k], point_want[k], 0.0f);

  // Linear filtering, clamp.
  const sample lin_at[5] = {{1.0f, 1.5f}, {2.3f, 0.5f}, {1.7f, 1.9f}, {0.1f, 0.2f}, {3.8f, 2.6f}};
  cudaTextureObject_t linear = make_texture(array2d, cudaFilterModeLinear, cudaAddressModeClamp, 0,
                                            cudaReadModeElementType, 0);
  for (int k = 0; k < 5; k++) at[k] = lin_at[k];
  read_2d<<<1, 32>>>(linear, at, out, 5);
  cudaDeviceSynchronize();
  for (int k = 0; k < 5; k++) {
    // The largest difference between neighbours here is 9 + 10: 1/256 of it, and float rounding.
    float want = lerp_want(texel, lin_at[k].x, lin_at[k].y, W, H);
    expect("tex2D linear clamp", k, out[k], want, 19.0f / 256.0f + 1e-4f);
  }

  // Border: outside reads the border colour; linear filtering blends it in at the edge.
  cudaTextureObject_t border = make_texture(array2d, cudaFilterModePoint, cudaAddressModeBorder, 0,
                                            cudaReadModeElementType, 42.0f);
  cudaTextureObject_t border_lin = make_texture(
      array2d, cudaFilterModeLinear, cudaAddressModeBorder, 0, cudaReadModeElementType, 42.0f);
  at[0] = {-1.0f, 0.5f};
  at[1] = {0.5f, 3.2f};
  at[2] = {2.5f, 1.5f};
  read_2d<<<1, 32>>>(border, at, out, 3);
  cudaDeviceSynchronize();
  expect("tex2D border", 0, out[0], 42.0f, 0.0f);
  expect("tex2D border", 1, out[1], 42.0f, 0.0f);
  expect("tex2D border", 2, out[2], texel(2, 1), 0.0f);
  at[0] = {0.25f, 0.5f}; // a = 0.75 between the border (left) and texel (0, 0)
  read_2d<<<1, 32>>>(border_lin, at, out, 1);
  cudaDeviceSynchronize();
  expect("tex2D linear border", 0, out[0], 0.25f * 42.0f + 0.75f * texel(0, 0),
         42.0f / 256.0f + 1e-4f);

  // A 1-D array of 8 texels (value 3 i), normalized coordinates: wrap and mirror.
  float row[8];
  for (int i = 0; i < 8; i++) row[i] = 3.0f * (float)i;
  cudaArray_t array1d = NULL;
  cudaMallocArray(&array1d, &fdesc, 8);
  cudaMemcpy2DToArray(array1d, 0, 0, row, sizeof row, sizeof row, 1, cudaMemcpyHostToDevice);
  cudaTextureObject_t wrap = make_texture(array1d, cudaFilterModePoint, cudaAddressModeWrap, 1,
                                          cudaReadModeElementType, 0);
  cudaTextureObject_t mirror = make_texture(array1d, cudaFilterModePoint, cudaAddressModeMirror, 1,
                                            cudaReadModeElementType, 0);
  const float norm_at[5] = {2.5f / 8, 1.0f + 2.5f / 8, -0.5f / 8, 1.0f + 0.5f / 8, 2.0f + 6.5f / 8};
  const int wrap_texel[5] = {2, 2, 7, 0, 6}, mirror_texel[5] = {2, 5, 0, 7, 6};
  for (int k = 0; k < 5; k++) at1[k] = norm_at[k];
  read_1d<<<1, 32>>>(wrap, at1, out, 5);
  cudaDeviceSynchronize();
  for (int k = 0; k < 5; k++) expect("tex1D wrap", k, out[k], row[wrap_texel[k]], 0.0f);
  read_1d<<<1, 32>>>(mirror, at1, out, 5);
  cudaDeviceSynchronize();
  for (int k = 0; k < 5; k++) expect("tex1D mirror", k, out[k], row[mirror_texel[k]], 0.0f);

  // 8-bit texels read as normalized floats (uchar4 -> float4 in [0, 1]).
  uchar4 bytes[4] = {{0, 51, 102, 255}, {255, 0, 0, 0}, {1, 2, 3, 4}, {128, 64, 32, 16}};
  cudaChannelFormatDesc u4 = cudaCreateChannelDesc<uchar4>();
  cudaArray_t array_u8 = NULL;
  cudaMallocArray(&array_u8, &u4, 4);
  cudaMemcpy2DToArray(array_u8, 0, 0, bytes, sizeof bytes, sizeof bytes, 1, cudaMemcpyHostToDevice);
  cudaTextureObject_t unorm = make_texture(array_u8, cudaFilterModePoint, cudaAddressModeClamp, 0,
                                           cudaReadModeNormalizedFloat, 0);
  float4 *out4 = NULL;
  cudaMallocManaged((void **)&out4, 4 * sizeof(float4));
  for (int k = 0; k < 4; k++) at1[k] = (float)k + 0.5f;
  read_uchar4<<<1, 32>>>(unorm, at1, out4, 4);
  cudaDeviceSynchronize();
  for (int k = 0; k < 4; k++) {
    expect("normalized float x", k, out4[k].x, bytes[k].x / 255.0f, 1e-6f);
    expect("normalized float w", k, out4[k].w, bytes[k].w / 255.0f, 1e-6f);
  }

  // A pitched 2-D texture over cudaMallocPitch memory, point sampling.
  float *pitched = NULL;
  size_t pitch = 0;
  cudaMallocPitch((void **)&pitched, &pitch, W * sizeof(float), H);
  cudaMemcpy2D(pitched, pitch, host, W * sizeof(float), W * sizeof(float), H,
               cudaMemcpyHostToDevice);
  cudaResourceDesc pres = {};
  pres.resType = cudaResourceTypePitch2D;
  pres.res.pitch2D.devPtr = pitched;
  pres.res.pitch2D.desc = fdesc;
  pres.res.pitch2D.width = W;
  pres.res.pitch2D.height = H;
  pres.res.pitch2D.pitchInBytes = pitch;
  cudaTextureDesc pdesc = {};
  pdesc.addressMode[0] = pdesc.addressMode[1] = cudaAddressModeClamp;
  pdesc.filterMode = cudaFilterModePoint;
  pdesc.readMode = cudaReadModeElementType;
  cudaTextureObject_t pitch_tex = 0;
  cudaCreateTextureObject(&pitch_tex, &pres, &pdesc, NULL);
  for (int k = 0; k < 6; k++) at[k] = point_at[k];
  read_2d<<<1, 32>>>(pitch_tex, at, out, 6);
  cudaDeviceSynchronize();
  for (int k = 0; k < 6; k++) expect("tex2D pitch2D", k, out[k], point_want[k], 0.0f);

  // tex1Dfetch of linear memory: out of range reads zero.
  const int n = 10;
  int values[n], *d_values = NULL, *fetched = NULL;
  for (int i = 0; i < n; i++) values[i] = 100 + i;
  cudaMalloc((void **)&d_values, sizeof values);
  cudaMemcpy(d_values, values, sizeof values, cudaMemcpyHostToDevice);
  cudaMallocManaged((void **)&fetched, (n + 4) * sizeof(int));
  cudaResourceDesc lres = {};
  lres.resType = cudaResourceTypeLinear;
  lres.res.linear.devPtr = d_values;
  lres.res.linear.desc = cudaCreateChannelDesc<int>();
  lres.res.linear.sizeInBytes = sizeof values;
  cudaTextureDesc ldesc = {};
  ldesc.readMode = cudaReadModeElementType;
  cudaTextureObject_t ints = 0;
  cudaCreateTextureObject(&ints, &lres, &ldesc, NULL);
  fetch_ints<<<1, 32>>>(ints, fetched, n + 4);
  cudaError_t e = cudaDeviceSynchronize();
  for (int k = 0; k < n + 4; k++) {
    int i = k - 2, want = i >= 0 && i < n ? 100 + i : 0;
    expect("tex1Dfetch", k, (float)fetched[k], (float)want, 0.0f);
  }

  cudaTextureObject_t all[] = {point,  linear, border,    border_lin, wrap,
                               mirror, unorm,  pitch_tex, ints};
  for (cudaTextureObject_t t : all) cudaDestroyTextureObject(t);
  cudaFreeArray(array2d);
  cudaFreeArray(array1d);
  cudaFreeArray(array_u8);
  cudaFree(pitched);
  cudaFree(d_values);
  cudaFree(at);
  cudaFree(at1);
  cudaFree(out);
  cudaFree(out4);
  cudaFree(fetched);
  if (e != cudaSuccess) {
    printf("FAIL texture_sampling: %s\n", cudaGetErrorString(e));
    return 1;
  }
  if (failures) return 1;
  printf("PASS texture_sampling\n");
  return 0;
}
