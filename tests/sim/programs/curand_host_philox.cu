// cuRAND's host API with CURAND_RNG_PSEUDO_PHILOX4_32_10 gives NVIDIA's own numbers, for a host
// generator and a device one. What an H200 gave (CUDA 13.0, seed 42, four uniform floats):
// 0.6129599 0.4685865 0.0732317 0.3408616; the same seed again keeps the offset and gives the
// next four, 0.0100588 0.1262498 0.2320662 0.7116128; curandSetGeneratorOffset(0) gives the
// first four again. Then the layout cuRAND documents for its host API (65536 subsequences, four
// numbers from each in turn), checked against the device API's curand_init and curand4: the raw
// bits at a few offsets, each from the subsequence and step the layout names.
// nvcc-flags: -lcurand
#include <cuda_runtime.h>
#include <curand.h>
#include <curand_kernel.h>
#include <stdio.h>
#include <string.h>

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

static const char *const first_four = "0.6129599 0.4685865 0.0732317 0.3408616";
static const char *const next_four = "0.0100588 0.1262498 0.2320662 0.7116128";

static int bad = 0;

// Four uniform floats from the generator (a device generator writes device memory), as text.
static int four_uniform(curandGenerator_t gen, int host, float *d_four, char text[64]) {
  float four[4];
  if (host) {
    CURAND_CHECK(curandGenerateUniform(gen, four, 4));
  } else {
    CURAND_CHECK(curandGenerateUniform(gen, d_four, 4));
    CHECK(cudaMemcpy(four, d_four, sizeof four, cudaMemcpyDeviceToHost));
  }
  snprintf(text, 64, "%.7f %.7f %.7f %.7f", four[0], four[1], four[2], four[3]);
  return 0;
}

static void expect(const char *who, const char *what, const char *got, const char *want) {
  if (strcmp(got, want) != 0) {
    printf("FAIL: %s generator, %s: %s, want %s\n", who, what, got, want);
    bad = 1;
  } else {
    printf("%s generator, %s: %s\n", who, what, got);
  }
}

static int seeds(int host, float *d_four) {
  const char *who = host ? "host" : "device";
  curandGenerator_t gen;
  if (host) {
    CURAND_CHECK(curandCreateGeneratorHost(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10));
  } else {
    CURAND_CHECK(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10));
  }
  char got[64];
  CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(gen, 42ULL));
  if (four_uniform(gen, host, d_four, got)) return 1;
  expect(who, "seed 42", got, first_four);
  CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(gen, 42ULL));
  if (four_uniform(gen, host, d_four, got)) return 1;
  expect(who, "seed 42 again (the offset stays)", got, next_four);
  CURAND_CHECK(curandSetGeneratorOffset(gen, 0));
  if (four_uniform(gen, host, d_four, got)) return 1;
  expect(who, "offset 0", got, first_four);
  CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(gen, 42ULL));
  CURAND_CHECK(curandSetGeneratorOffset(gen, 0));
  if (four_uniform(gen, host, d_four, got)) return 1;
  expect(who, "seed 42 and offset 0", got, first_four);
  CURAND_CHECK(curandDestroyGenerator(gen));
  return 0;
}

// Offsets into the host generator's output, in numbers: each a multiple of 4.
#define PLACES 5
struct offsets {
  unsigned long long at[PLACES];
};

// For each offset, curand4 of the subsequence and step the documented layout names.
__global__ void layout(struct offsets places, uint4 *out) {
  int i = threadIdx.x;
  if (i >= PLACES) return;
  unsigned long long group = places.at[i] / 4;
  curandStatePhilox4_32_10_t state;
  curand_init(42ULL, group % 65536, 4 * (group / 65536), &state);
  out[i] = curand4(&state);
}

int main(void) {
  float *d_four;
  CHECK(cudaMalloc(&d_four, 4 * sizeof(float)));
  if (seeds(1, d_four) || seeds(0, d_four)) return 1;
  CHECK(cudaFree(d_four));

  uint4 *d_want;
  CHECK(cudaMalloc(&d_want, PLACES * sizeof(uint4)));
  const struct offsets places = {{0, 4, 4 * 65535ULL, 4 * 65536ULL, 4 * (3 * 65536ULL + 7)}};
  layout<<<1, 32>>>(places, d_want);
  CHECK(cudaGetLastError());
  uint4 want[PLACES];
  CHECK(cudaMemcpy(want, d_want, sizeof want, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_want));
  curandGenerator_t gen;
  CURAND_CHECK(curandCreateGeneratorHost(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10));
  CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(gen, 42ULL));
  for (int i = 0; i < PLACES; ++i) {
    unsigned int got[4];
    CURAND_CHECK(curandSetGeneratorOffset(gen, places.at[i]));
    CURAND_CHECK(curandGenerate(gen, got, 4));
    if (got[0] != want[i].x || got[1] != want[i].y || got[2] != want[i].z || got[3] != want[i].w) {
      printf("FAIL: raw bits at offset %llu: %08x %08x %08x %08x, want the device API's %08x "
             "%08x %08x %08x\n",
             places.at[i], got[0], got[1], got[2], got[3], want[i].x, want[i].y, want[i].z,
             want[i].w);
      bad = 1;
    }
  }
  CURAND_CHECK(curandDestroyGenerator(gen));
  if (bad) return 1;
  printf("raw bits at %d offsets: the documented layout\nPASS\n", PLACES);
  return 0;
}
