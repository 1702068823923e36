// A launch and a __shared__ array in an included .cuh header.
#include <cstdio>

#include "block_sum.cuh"

int main() {
  const int n = 1000, blocks = (n + BLOCK_SUM_THREADS - 1) / BLOCK_SUM_THREADS;
  int host[n], sums[blocks];
  for (int i = 0; i < n; i++) host[i] = i % 7;
  int *d_in = NULL, *d_out = NULL;
  if (cudaMalloc((void **)&d_in, sizeof host) != cudaSuccess ||
      cudaMalloc((void **)&d_out, sizeof sums) != cudaSuccess) {
    printf("FAIL launch_in_header: cudaMalloc\n");
    return 1;
  }
  cudaMemcpy(d_in, host, sizeof host, cudaMemcpyHostToDevice);
  cudaError_t status = block_sums(d_in, d_out, n);
  if (status == cudaSuccess) status = cudaMemcpy(sums, d_out, sizeof sums, cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
  long long total = 0, expected = 0;
  for (int b = 0; b < blocks; b++) total += sums[b];
  for (int i = 0; i < n; i++) expected += host[i];
  if (status != cudaSuccess || total != expected) {
    printf("FAIL launch_in_header: %s, sum %lld, expected %lld\n", cudaGetErrorString(status),
           total, expected);
    return 1;
  }
  printf("PASS launch_in_header\n");
  return 0;
}
