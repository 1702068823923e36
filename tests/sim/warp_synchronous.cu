// Warp-synchronous code (issue 18): the block reduction of NVIDIA's 2007 "Optimizing Parallel
// Reduction in CUDA", whose last warp steps through volatile shared memory with no __syncwarp().
// Since Volta a warp's threads need not run in lockstep, so the steps race; the simulator stops
// it, naming the line and __syncwarp() (`legacy`), and runs the version with __syncwarp()
// between the steps (`syncwarp`), which is right on every GPU.
#include <cstdio>
#include <cstring>

__device__ void warp_reduce_legacy(volatile int *sdata, unsigned tid) {
  sdata[tid] += sdata[tid + 32]; // legacy-first-step
  sdata[tid] += sdata[tid + 16];
  sdata[tid] += sdata[tid + 8];
  sdata[tid] += sdata[tid + 4];
  sdata[tid] += sdata[tid + 2];
  sdata[tid] += sdata[tid + 1];
}

// Each step reads, waits for the warp, writes, waits again (Volta programming guide's pattern).
__device__ void warp_reduce_syncwarp(volatile int *sdata, unsigned tid) {
  int v = sdata[tid];
  for (unsigned offset = 32; offset > 0; offset >>= 1) {
    v += sdata[tid + offset];
    __syncwarp();
    sdata[tid] = v;
    __syncwarp();
  }
}

template <bool Legacy> __global__ void reduce(const int *in, int *out) {
  __shared__ int sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    if (Legacy)
      warp_reduce_legacy(sdata, tid);
    else
      warp_reduce_syncwarp(sdata, tid);
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  bool legacy = std::strcmp(mode, "legacy") == 0;
  if (!legacy && std::strcmp(mode, "syncwarp") != 0) {
    std::printf("usage: warp_synchronous legacy|syncwarp\n");
    return 2;
  }
  const int blocks = 8, threads = 256, n = blocks * threads;
  static int in[n], out[blocks];
  for (int i = 0; i < n; i++) in[i] = i % 7;
  int *d_in, *d_out;
  cudaMalloc((void **)&d_in, sizeof in);
  cudaMalloc((void **)&d_out, sizeof out);
  cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
  if (legacy)
    reduce<true><<<blocks, threads>>>(d_in, d_out);
  else
    reduce<false><<<blocks, threads>>>(d_in, d_out);
  cudaError_t e = cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) {
    std::printf("%s: %s\n", mode, cudaGetErrorName(e));
    return 1;
  }
  long got = 0, want = 0;
  for (int b = 0; b < blocks; b++) got += out[b];
  for (int i = 0; i < n; i++) want += in[i];
  std::printf("%s: %s (sum %ld, want %ld)\n", mode, got == want ? "ok" : "wrong sum", got, want);
  return got == want ? 0 : 1;
}
