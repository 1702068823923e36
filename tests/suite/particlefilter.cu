// One resampling step of a particle filter: the weights' total and the weighted mean position by
// a block reduction, then each new particle picks an old one by searching the weights' running
// sum (the CDF). The reduction keeps its two arrays in one declaration,
// `__shared__ float a[N], b[N];`, and one launch is spaced `k << < g, b >> > (...)`, both as the
// program it imitates writes them. The weights and positions are whole numbers, so every sum is
// exact in any order. Checked against the CPU. Prints one PASS or FAIL line.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define PARTICLES 8192
#define BLOCK_SIZE 256
#define BLOCKS (PARTICLES / BLOCK_SIZE)

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL particlefilter: %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__);  \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

__global__ void sum_weights(const float *weights, const float *x, float *block_w, float *block_wx) {
  __shared__ float s_w[BLOCK_SIZE], s_wx[BLOCK_SIZE];
  int t = threadIdx.x, i = blockIdx.x * BLOCK_SIZE + t;
  s_w[t] = weights[i];
  s_wx[t] = weights[i] * x[i];
  __syncthreads();
  for (int stride = BLOCK_SIZE / 2; stride > 0; stride /= 2) {
    if (t < stride) {
      s_w[t] += s_w[t + stride];
      s_wx[t] += s_wx[t + stride];
    }
    __syncthreads();
  }
  if (t == 0) {
    block_w[blockIdx.x] = s_w[0];
    block_wx[blockIdx.x] = s_wx[0];
  }
}

// New particle j takes the first old particle whose CDF reaches u_j (systematic resampling).
__global__ void find_index(const float *cdf, const float *x, float total, float *x_new, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  float u = (j + 0.5f) * (total / n);
  int lo = 0, hi = n - 1;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (cdf[mid] >= u)
      hi = mid;
    else
      lo = mid + 1;
  }
  x_new[j] = x[lo];
}

int main(void) {
  static float weights[PARTICLES], x[PARTICLES], cdf[PARTICLES], x_new[PARTICLES];
  static float expected_new[PARTICLES];
  float block_w[BLOCKS], block_wx[BLOCKS];
  unsigned seed = 31337u;
  for (int i = 0; i < PARTICLES; i++) {
    seed = seed * 1664525u + 1013904223u;
    weights[i] = (float)(1 + (seed >> 27)); // 1..32
    x[i] = (float)((seed >> 8) % 64);       // 0..63: every sum below 2^24
  }
  float *d_w, *d_x, *d_bw, *d_bwx, *d_cdf, *d_new;
  CHECK(cudaMalloc((void **)&d_w, sizeof weights));
  CHECK(cudaMalloc((void **)&d_x, sizeof x));
  CHECK(cudaMalloc((void **)&d_bw, sizeof block_w));
  CHECK(cudaMalloc((void **)&d_bwx, sizeof block_wx));
  CHECK(cudaMalloc((void **)&d_cdf, sizeof cdf));
  CHECK(cudaMalloc((void **)&d_new, sizeof x_new));
  CHECK(cudaMemcpy(d_w, weights, sizeof weights, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice));
  sum_weights<<<BLOCKS, BLOCK_SIZE>>>(d_w, d_x, d_bw, d_bwx);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(block_w, d_bw, sizeof block_w, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(block_wx, d_bwx, sizeof block_wx, cudaMemcpyDeviceToHost));
  float total = 0, total_x = 0;
  for (int b = 0; b < BLOCKS; b++) {
    total += block_w[b];
    total_x += block_wx[b];
  }
  // The CDF on the host (whole numbers below 2^24: exact).
  float running = 0;
  for (int i = 0; i < PARTICLES; i++) {
    running += weights[i];
    cdf[i] = running;
  }
  CHECK(cudaMemcpy(d_cdf, cdf, sizeof cdf, cudaMemcpyHostToDevice));
  find_index<<<BLOCKS, BLOCK_SIZE>>>(d_cdf, d_x, total, d_new, PARTICLES);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(x_new, d_new, sizeof x_new, cudaMemcpyDeviceToHost));

  // The CPU reference: the same sums, and a linear walk along the CDF.
  float expected_total = 0, expected_x = 0;
  for (int i = 0; i < PARTICLES; i++) {
    expected_total += weights[i];
    expected_x += weights[i] * x[i];
  }
  int wrong = (total != expected_total) + (total_x != expected_x);
  int k = 0;
  for (int j = 0; j < PARTICLES; j++) {
    float u = (j + 0.5f) * (expected_total / PARTICLES);
    while (cdf[k] < u) k++;
    expected_new[j] = x[k];
    wrong += x_new[j] != expected_new[j];
  }
  if (wrong == 0) {
    printf("PASS particlefilter: %d particles resampled, weighted mean %.3f, as the CPU's\n",
           PARTICLES, total_x / total);
  } else {
    printf("FAIL particlefilter: %d results differ from the CPU's\n", wrong);
  }
  cudaFree(d_w);
  cudaFree(d_x);
  cudaFree(d_bw);
  cudaFree(d_bwx);
  cudaFree(d_cdf);
  cudaFree(d_new);
  return wrong == 0 ? 0 : 1;
}
