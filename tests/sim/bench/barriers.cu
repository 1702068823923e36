// Simulator benchmark: what a thread's start and end cost against a barrier crossing. The same
// block of 256 threads with 0, 1, 2, 9 and 17 __syncthreads() per thread (ping-pong shared
// buffers, so no step races the next); ns per thread and crossings per CPU-second, the best of 5.
// The fixed cost per thread is about K=1 minus one crossing; a crossing, the slope from 9 to 17.
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <cuda_runtime.h>

static double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

template <int K> __global__ void barriers(float *out) {
  __shared__ float s[2][256];
  unsigned t = threadIdx.x;
  s[0][t] = (float)t;
  for (int k = 0; k < K; ++k) {
    __syncthreads();
    s[(k + 1) & 1][t] = s[k & 1][t] + s[k & 1][(t + 1) & 255];
  }
  if (t == 0) out[blockIdx.x] = s[K & 1][0];
}

template <int K> static void run(float *out, int blocks) {
  barriers<K><<<blocks, 256>>>(out);
  cudaDeviceSynchronize();
  double best = 1e9;
  for (int r = 0; r < 5; ++r) {
    double c = cpu_seconds();
    barriers<K><<<blocks, 256>>>(out);
    cudaDeviceSynchronize();
    c = cpu_seconds() - c;
    if (c < best) best = c;
  }
  double threads = (double)blocks * 256;
  std::printf("K=%2d: %6.1f ns per thread, %6.1f million crossings per CPU-second\n", K,
              best / threads * 1e9, K ? threads * K / best / 1e6 : 0.0);
}

int main(int argc, char **argv) {
  int blocks = argc > 1 ? std::atoi(argv[1]) : 4000;
  if (blocks < 1) {
    std::fprintf(stderr, "usage: sim_bench_barriers [BLOCKS]\n");
    return 2;
  }
  float *out;
  cudaMalloc(&out, (size_t)blocks * sizeof(float));
  run<0>(out, blocks);
  run<1>(out, blocks);
  run<2>(out, blocks);
  run<9>(out, blocks);
  run<17>(out, blocks);
  cudaFree(out);
  return 0;
}
