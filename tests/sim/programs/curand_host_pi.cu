// cuRAND's host API: a generator fills device memory with uniform numbers, a kernel counts the
// points that fall inside the quarter circle, and 4 * inside / total estimates pi. Then normal
// numbers (their mean and spread), uniform doubles and raw bits, a host generator, and the rule
// that normal numbers come in pairs. Built with nvcc, cuRAND is a library: link with -lcurand.
// nvcc-flags: -lcurand
#include <cuda_runtime.h>
#include <curand.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));                    \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

#define CURAND_CHECK(call)                                                                         \
  do {                                                                                             \
    curandStatus_t status_ = (call);                                                               \
    if (status_ != CURAND_STATUS_SUCCESS) {                                                        \
      printf("FAIL %s:%d: cuRAND status %d\n", __FILE__, __LINE__, (int)status_);                  \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

__global__ void count_inside(const float *xy, int points, unsigned int *inside) {
  __shared__ unsigned int block_count;
  if (threadIdx.x == 0) block_count = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < points; i += blockDim.x * gridDim.x) {
    float x = xy[2 * i], y = xy[2 * i + 1];
    if (x * x + y * y <= 1.0f) atomicAdd(&block_count, 1u);
  }
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(inside, block_count);
}

int main(void) {
  const int points = 1 << 20;
  const size_t values = 2 * (size_t)points;
  float *d_xy;
  unsigned int *d_inside;
  CHECK(cudaMalloc(&d_xy, values * sizeof(float)));
  CHECK(cudaMalloc(&d_inside, sizeof(unsigned int)));
  CHECK(cudaMemset(d_inside, 0, sizeof(unsigned int)));

  curandGenerator_t gen;
  CURAND_CHECK(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT));
  CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(gen, 1234ULL));
  CURAND_CHECK(curandGenerateUniform(gen, d_xy, values));
  count_inside<<<64, 256>>>(d_xy, points, d_inside);
  CHECK(cudaGetLastError());
  unsigned int inside = 0;
  CHECK(cudaMemcpy(&inside, d_inside, sizeof inside, cudaMemcpyDeviceToHost));
  double pi = 4.0 * inside / points;
  int bad = 0;
  // The estimate's standard deviation is about 1.6 / sqrt(points) = 0.0016: allow 5 of them.
  if (fabs(pi - 3.14159265) > 0.008) {
    printf("FAIL: pi estimated as %.5f\n", pi);
    bad = 1;
  }

  // Uniform floats lie in (0, 1]; their mean is close to 1/2.
  float *h = (float *)malloc(values * sizeof(float));
  CHECK(cudaMemcpy(h, d_xy, values * sizeof(float), cudaMemcpyDeviceToHost));
  double sum = 0.0;
  for (size_t i = 0; i < values; ++i) {
    if (!(h[i] > 0.0f && h[i] <= 1.0f)) {
      printf("FAIL: uniform value %zu is %g, outside (0, 1]\n", i, h[i]);
      bad = 1;
      break;
    }
    sum += h[i];
  }
  if (fabs(sum / values - 0.5) > 0.002) {
    printf("FAIL: uniform mean %.4f\n", sum / values);
    bad = 1;
  }

  // Normal floats with mean 10 and standard deviation 2, on a stream of the program's own.
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  CURAND_CHECK(curandSetStream(gen, stream));
  CURAND_CHECK(curandGenerateNormal(gen, d_xy, values, 10.0f, 2.0f));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaMemcpy(h, d_xy, values * sizeof(float), cudaMemcpyDeviceToHost));
  double mean = 0.0, var = 0.0;
  for (size_t i = 0; i < values; ++i) mean += h[i];
  mean /= values;
  for (size_t i = 0; i < values; ++i) var += (h[i] - mean) * (h[i] - mean);
  double stddev = sqrt(var / (values - 1));
  if (fabs(mean - 10.0) > 0.01 || fabs(stddev - 2.0) > 0.01) {
    printf("FAIL: normal mean %.4f, standard deviation %.4f (want 10, 2)\n", mean, stddev);
    bad = 1;
  }
  // Normal numbers come in pairs: an odd count is refused.
  curandStatus_t odd = curandGenerateNormal(gen, d_xy, 3, 0.0f, 1.0f);
  if (odd != CURAND_STATUS_LENGTH_NOT_MULTIPLE) {
    printf("FAIL: 3 normal numbers gave status %d, want CURAND_STATUS_LENGTH_NOT_MULTIPLE\n",
           (int)odd);
    bad = 1;
  }

  // Uniform doubles and raw bits: every bit is used.
  double *d_u;
  unsigned int *d_bits;
  CHECK(cudaMalloc(&d_u, 4096 * sizeof(double)));
  CHECK(cudaMalloc(&d_bits, 4096 * sizeof(unsigned int)));
  CURAND_CHECK(curandGenerateUniformDouble(gen, d_u, 4096));
  CURAND_CHECK(curandGenerate(gen, d_bits, 4096));
  double hu[4096];
  unsigned int hb[4096];
  CHECK(cudaMemcpy(hu, d_u, sizeof hu, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hb, d_bits, sizeof hb, cudaMemcpyDeviceToHost));
  unsigned int all_or = 0, all_and = ~0u;
  for (int i = 0; i < 4096; ++i) {
    if (!(hu[i] > 0.0 && hu[i] <= 1.0)) {
      printf("FAIL: uniform double %d is %g\n", i, hu[i]);
      bad = 1;
      break;
    }
    all_or |= hb[i];
    all_and &= hb[i];
  }
  if (all_or != ~0u || all_and != 0u) {
    printf("FAIL: raw bits: or 0x%08x, and 0x%08x\n", all_or, all_and);
    bad = 1;
  }
  CURAND_CHECK(curandDestroyGenerator(gen));

  // A host generator writes host memory; the same seed and offset give the same numbers again.
  curandGenerator_t host_gen;
  CURAND_CHECK(curandCreateGeneratorHost(&host_gen, CURAND_RNG_PSEUDO_PHILOX4_32_10));
  CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(host_gen, 42ULL));
  double first[256], again[256];
  CURAND_CHECK(curandGenerateNormalDouble(host_gen, first, 256, 0.0, 1.0));
  CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(host_gen, 42ULL));
  // A new seed keeps the generator's offset (cuRAND on a GPU: seen): back to offset 0 as well.
  CURAND_CHECK(curandSetGeneratorOffset(host_gen, 0));
  CURAND_CHECK(curandGenerateNormalDouble(host_gen, again, 256, 0.0, 1.0));
  for (int i = 0; i < 256; ++i) {
    if (first[i] != again[i] || !(fabs(first[i]) < 10.0)) {
      printf("FAIL: host normal %d: %g then %g\n", i, first[i], again[i]);
      bad = 1;
      break;
    }
  }
  CURAND_CHECK(curandDestroyGenerator(host_gen));

  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(d_xy));
  CHECK(cudaFree(d_inside));
  CHECK(cudaFree(d_u));
  CHECK(cudaFree(d_bits));
  free(h);
  if (bad) return 1;
  printf("pi ~ %.4f from %d points; normal mean %.3f, sd %.3f\nPASS\n", pi, points, mean, stddev);
  return 0;
}
