// The unrolled block reduction of the CUDA samples' "reduction" kernel 6 in its post-Volta form:
// the block size a template parameter, the loop unrolled, and the last warp's steps on volatile
// shared memory separated by __syncwarp() (warp-synchronous code needs it since Volta).
#include <cstdio>

template <unsigned BlockSize> __device__ void warp_reduce(volatile float *sdata, unsigned tid) {
  float v = sdata[tid];
  if (BlockSize >= 64) {
    v += sdata[tid + 32];
    __syncwarp();
    sdata[tid] = v;
    __syncwarp();
  }
  if (BlockSize >= 32) {
    v += sdata[tid + 16];
    __syncwarp();
    sdata[tid] = v;
    __syncwarp();
  }
  if (BlockSize >= 16) {
    v += sdata[tid + 8];
    __syncwarp();
    sdata[tid] = v;
    __syncwarp();
  }
  if (BlockSize >= 8) {
    v += sdata[tid + 4];
    __syncwarp();
    sdata[tid] = v;
    __syncwarp();
  }
  if (BlockSize >= 4) {
    v += sdata[tid + 2];
    __syncwarp();
    sdata[tid] = v;
    __syncwarp();
  }
  if (BlockSize >= 2) {
    v += sdata[tid + 1];
    __syncwarp();
    sdata[tid] = v;
    __syncwarp();
  }
}

template <unsigned BlockSize> __global__ void reduce6(const float *in, float *out, unsigned n) {
  __shared__ float sdata[BlockSize];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (BlockSize * 2) + tid;
  unsigned grid_size = BlockSize * 2 * gridDim.x;
  float sum = 0.0f;
  while (i < n) {
    sum += in[i];
    if (i + BlockSize < n) sum += in[i + BlockSize];
    i += grid_size;
  }
  sdata[tid] = sum;
  __syncthreads();
  if (BlockSize >= 512) {
    if (tid < 256) sdata[tid] = sum = sum + sdata[tid + 256];
    __syncthreads();
  }
  if (BlockSize >= 256) {
    if (tid < 128) sdata[tid] = sum = sum + sdata[tid + 128];
    __syncthreads();
  }
  if (BlockSize >= 128) {
    if (tid < 64) sdata[tid] = sum = sum + sdata[tid + 64];
    __syncthreads();
  }
  if (tid < 32) warp_reduce<BlockSize>(sdata, tid);
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

int main() {
  const unsigned n = 1 << 20, blocks = 64;
  float *in = (float *)malloc(n * sizeof(float)), partial[blocks];
  double want = 0.0;
  for (unsigned i = 0; i < n; i++) {
    in[i] = (float)(i % 13) * 0.25f;
    want += in[i];
  }
  float *d_in, *d_out;
  cudaMalloc((void **)&d_in, n * sizeof(float));
  cudaMalloc((void **)&d_out, blocks * sizeof(float));
  cudaMemcpy(d_in, in, n * sizeof(float), cudaMemcpyHostToDevice);
  reduce6<256><<<blocks, 256>>>(d_in, d_out, n);
  cudaError_t e = cudaMemcpy(partial, d_out, sizeof partial, cudaMemcpyDeviceToHost);
  double got = 0.0;
  for (unsigned b = 0; b < blocks; b++) got += partial[b];
  cudaFree(d_in);
  cudaFree(d_out);
  free(in);
  if (e != cudaSuccess || got != want) { // every partial sum is exact in float here
    printf("FAIL reduce_warp_unrolled: %s, sum %.1f, want %.1f\n", cudaGetErrorString(e), got,
           want);
    return 1;
  }
  printf("PASS reduce_warp_unrolled\n");
  return 0;
}
