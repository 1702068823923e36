// nvcc-sim --unchecked (issue 27): the same program built checked and unchecked.
//   unchecked_cases past-end: each thread reads in[i + 1], one element past the array for the
//     last thread; a checked build reports the read and the launch fails, an unchecked one
//     reads a neighbouring byte in silence (as a GPU may).
//   unchecked_cases correct: a scaled sum and a shared-memory block reduction; both builds print
//     the same numbers.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

__global__ void shift_left(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i + 1]; // in[n] for the last thread: out of bounds
}

__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void block_sum(const float *in, float *out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  for (unsigned k = 128; k > 0; k >>= 1) {
    __syncthreads();
    if (t < k) s[t] += s[t + k];
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

static int past_end(void) {
  const int n = 256;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  shift_left<<<1, n>>>(in, out, n);
  cudaError_t e = cudaDeviceSynchronize();
  printf("past-end: %s\n", cudaGetErrorName(e));
  cudaFree(in);
  cudaFree(out);
  return 0; // the verdict is the output: the exit status is the checker's (CUSIM_ERROR_EXITCODE)
}

static int correct(void) {
  const int blocks = 64, n = blocks * 256;
  float *h = (float *)malloc(n * sizeof(float)), sums[blocks];
  for (int i = 0; i < n; ++i) h[i] = (float)(i % 7) - 3.0f;
  float *x, *y, *out;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMalloc(&out, blocks * sizeof(float));
  cudaMemcpy(x, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(y, h, n * sizeof(float), cudaMemcpyHostToDevice);
  axpy<<<blocks, 256>>>(0.5f, x, y, n);
  block_sum<<<blocks, 256>>>(y, out);
  cudaMemcpy(sums, out, sizeof sums, cudaMemcpyDeviceToHost);
  double total = 0;
  for (int b = 0; b < blocks; ++b) total += sums[b];
  printf("correct: %s, sums[0] %.1f sums[1] %.1f sums[%d] %.1f total %.1f\n",
         cudaGetErrorName(cudaGetLastError()), sums[0], sums[1], blocks - 1, sums[blocks - 1],
         total);
  cudaFree(x);
  cudaFree(y);
  cudaFree(out);
  free(h);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "past-end")) return past_end();
  if (argc == 2 && !strcmp(argv[1], "correct")) return correct();
  fprintf(stderr, "usage: unchecked_cases past-end|correct\n");
  return 2;
}
