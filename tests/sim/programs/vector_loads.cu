// Vectorized loads and stores: float4, float2 and int4 a thread, global and shared memory. Each
// kernel's answer is checked on the host. Run with CUSIM_PROFILE=1 on the simulator, the report
// counts each vector access as one request of 16 (or 8) bytes a lane, as Nsight Compute does.
#include <cuda_runtime.h>
#include <stdio.h>

#include "vector_kernels.cuh"

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));                    \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

#define N 1024 /* floats: 256 float4 */

int main(void) {
  float *x, *y;
  int4 *ints;
  CHECK(cudaMallocManaged(&x, 2 * N * sizeof(float)));
  CHECK(cudaMallocManaged(&y, N * sizeof(float)));
  CHECK(cudaMallocManaged(&ints, (N / 4) * sizeof(int4)));
  for (int i = 0; i < 2 * N; ++i) x[i] = (float)(i % 100);
  int bad = 0;

  sum_float4<<<N / 4 / 128, 128>>>(x, y);
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < N / 4; ++i)
    bad += y[i] != x[4 * i] + x[4 * i + 1] + x[4 * i + 2] + x[4 * i + 3];

  scale_float4<<<N / 4 / 64, 64>>>((const float4 *)x, (float4 *)y);
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < N; ++i) bad += y[i] != 2.0f * x[i];

  scale_float2<<<N / 2 / 64, 64>>>(x, y);
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < N; ++i) bad += y[i] != 2.0f * x[i];

  store_int4<<<N / 4 / 32, 32>>>(ints);
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < N / 4; ++i)
    bad += ints[i].x != 4 * i || ints[i].y != 4 * i + 1 || ints[i].z != 4 * i + 2 ||
           ints[i].w != 4 * i + 3;

  stride2_float4<<<N / 4 / 32, 32>>>((const float4 *)x, (float4 *)y);
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < N / 4; ++i)
    bad += y[4 * i] != x[8 * i] + 1.0f || y[4 * i + 1] != x[8 * i + 1] ||
           y[4 * i + 2] != x[8 * i + 2] || y[4 * i + 3] != x[8 * i + 3] + 1.0f;

  mirror_float4<<<1, 64>>>((const float4 *)x, (float4 *)y);
  CHECK(cudaDeviceSynchronize());
  for (int t = 0; t < 64; ++t)
    for (int c = 0; c < 4; ++c) bad += y[4 * t + c] != x[4 * (63 - t) + c] - (c == 1 ? 1.0f : 0.0f);

  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  CHECK(cudaFree(ints));
  printf("%s: %d wrong values\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
