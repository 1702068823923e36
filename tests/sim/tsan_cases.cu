// Races between CUDA threads, reported by ThreadSanitizer (sim-race preset).
// Usage: sim_tsan missing_atomic|missing_atomic_reused|warp_unsynced|clean
//   missing_atomic  every thread increments one counter without atomicAdd: a race
//   missing_atomic_reused  the same race after two correct launches of blocks as large, whose
//                   threads' TSan fibers the racing threads reuse (scheduler.cpp, tsan_keep)
//   warp_unsynced   the last warp of a shared-memory reduction without __syncwarp between steps
//                   (warp-synchronous code that relies on lockstep execution): a race
//   clean           the same computations done right (__syncthreads, atomics, __syncwarp and
//                   shuffles): no report
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

// The reduction of a block of 64: the first warp finishes it. `sync` puts a __syncwarp between
// the steps, as Volta's independent thread scheduling requires; without it, lanes read values
// that other lanes of the warp have not written yet (or overwrite them while they are read).
__global__ void warp_reduce(const int *in, int *out, bool sync) {
  __shared__ volatile int s[64];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  if (t < 32) {
    int v = s[t] + s[t + 32];
    s[t] = v;
    for (int off = 16; off > 0; off >>= 1) {
      if (sync) __syncwarp();
      v += s[t + off];
      if (sync) __syncwarp();
      s[t] = v;
    }
    if (t == 0) atomicAdd(out, s[0]);
  }
}

__global__ void shuffle_reduce(const int *in, int *out) {
  int v = in[threadIdx.x];
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}

int main(int argc, char **argv) {
  const char *c = argc > 1 ? argv[1] : "";
  int *counter, *in;
  cudaMallocManaged(&counter, sizeof(int));
  cudaMallocManaged(&in, 64 * sizeof(int));
  for (int k = 0; k < 64; ++k) in[k] = 1;
  *counter = 0;
  int expect = 0;
  if (!std::strcmp(c, "missing_atomic")) {
    count_without_atomic<<<1, 64>>>(counter);
    expect = -1; // whatever the race gives
  } else if (!std::strcmp(c, "missing_atomic_reused")) {
    count_with_barrier<<<4, 64>>>(in, counter);
    cudaDeviceSynchronize();
    count_with_barrier<<<4, 64>>>(in, counter);
    cudaDeviceSynchronize();
    count_without_atomic<<<1, 64>>>(counter);
    expect = -1;
  } else if (!std::strcmp(c, "warp_unsynced")) {
    warp_reduce<<<1, 64>>>(in, counter, false);
    expect = -1;
  } else if (!std::strcmp(c, "clean")) {
    count_with_barrier<<<2, 64>>>(in, counter);
    warp_reduce<<<2, 64>>>(in, counter, true);
    shuffle_reduce<<<2, 64>>>(in, counter);
    expect = 3 * 128;
  } else {
    std::fprintf(stderr,
                 "usage: sim_tsan missing_atomic|missing_atomic_reused|warp_unsynced|clean\n");
    return 2;
  }
  cudaError_t e = cudaDeviceSynchronize();
  bool ok = e == cudaSuccess && (expect < 0 || *counter == expect);
  std::printf("%s: %s (counter %d)\n", c, ok ? "ok" : "WRONG", *counter);
  return ok ? 0 : 1;
}
