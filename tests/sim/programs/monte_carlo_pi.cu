// Monte Carlo estimate of pi with cuRAND's device API: each thread has its own generator state
// (same seed, its own subsequence), throws points into the unit square and counts those inside
// the quarter circle. Done once with XORWOW (curandState) and once with Philox.
#include <cuda_runtime.h>
#include <curand_kernel.h>
#include <math.h>
#include <stdio.h>

#define THROWS_PER_THREAD 1000

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL %s:%d: %s\\n", __FILE__, __LINE__, cudaGetErrorString(err_));                   \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

__global__ void setup_xorwow(curandState *states, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
}

__global__ void count_xorwow(curandState *states, unsigned long long *hits) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState local = states[id];
  unsigned int inside = 0;
  for (int t = 0; t < THROWS_PER_THREAD; ++t) {
    float x = curand_uniform(&local);
    float y = curand_uniform(&local);
    inside += x * x + y * y <= 1.0f;
  }
  states[id] = local;
  atomicAdd(hits, (unsigned long long)inside);
}

__global__ void count_philox(unsigned long long seed, unsigned long long *hits) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandStatePhilox4_32_10_t state;
  curand_init(seed, id, 0, &state);
  unsigned int inside = 0;
  for (int t = 0; t < THROWS_PER_THREAD; t += 2) {
    float4 point = curand_uniform4(&state); // two points per call
    inside += point.x * point.x + point.y * point.y <= 1.0f;
    inside += point.z * point.z + point.w * point.w <= 1.0f;
  }
  atomicAdd(hits, (unsigned long long)inside);
}

int main(void) {
  const int blocks = 64, threads = 128;
  const double total = (double)blocks * threads * THROWS_PER_THREAD;
  curandState *states;
  unsigned long long *hits;
  CHECK(cudaMalloc(&states, blocks * threads * sizeof(curandState)));
  CHECK(cudaMalloc(&hits, 2 * sizeof(unsigned long long)));
  CHECK(cudaMemset(hits, 0, 2 * sizeof(unsigned long long)));

  setup_xorwow<<<blocks, threads>>>(states, 2024ull);
  count_xorwow<<<blocks, threads>>>(states, hits);
  count_philox<<<blocks, threads>>>(2024ull, hits + 1);
  CHECK(cudaGetLastError());
  unsigned long long counts[2];
  CHECK(cudaMemcpy(counts, hits, sizeof counts, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(states));
  CHECK(cudaFree(hits));

  // 8.2 million throws: the standard error of the estimate is about 0.0006.
  double pi_xorwow = 4.0 * (double)counts[0] / total;
  double pi_philox = 4.0 * (double)counts[1] / total;
  printf("pi: XORWOW %.5f, Philox %.5f\n", pi_xorwow, pi_philox);
  if (fabs(pi_xorwow - M_PI) > 0.005 || fabs(pi_philox - M_PI) > 0.005) {
    printf("FAIL monte_carlo_pi\n");
    return 1;
  }
  printf("PASS monte_carlo_pi\n");
  return 0;
}
