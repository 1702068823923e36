// Races between CUDA threads, reported by ThreadSanitizer (sim-race preset).
// Usage: sim_tsan missing_atomic|clean
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void count_without_atomic(int *counter) {
  *counter = *counter + 1; // every thread of the block: a race (atomicAdd was meant)
}

__global__ void count_with_barrier(const int *in, int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  if (t == 0) {
    int sum = 0;
    for (int k = 0; k < 64; ++k) sum += s[k];
    atomicAdd(out, sum);
  }
}

int main(int argc, char **argv) {
  const char *c = argc > 1 ? argv[1] : "";
  int *counter, *in;
  cudaMallocManaged(&counter, sizeof(int));
  cudaMallocManaged(&in, 64 * sizeof(int));
  for (int k = 0; k < 64; ++k) in[k] = 1;
  *counter = 0;
  if (!std::strcmp(c, "missing_atomic"))
    count_without_atomic<<<1, 64>>>(counter);
  else
    count_with_barrier<<<2, 64>>>(in, counter);
  cudaDeviceSynchronize();
  std::printf("%s: ok (counter %d)\n", c, *counter);
  return 0;
}
