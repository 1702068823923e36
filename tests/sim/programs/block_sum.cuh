// A header with a kernel that uses __shared__ and a host function that launches it, included by
// launch_in_header.cu.
#ifndef BLOCK_SUM_CUH
#define BLOCK_SUM_CUH

#define BLOCK_SUM_THREADS 256

__global__ void block_sum(const int *in, int *out, int n) {
  __shared__ int partial[BLOCK_SUM_THREADS];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

static inline cudaError_t block_sums(const int *d_in, int *d_out, int n) {
  int blocks = (n + BLOCK_SUM_THREADS - 1) / BLOCK_SUM_THREADS;
  block_sum<<<blocks, BLOCK_SUM_THREADS>>>(d_in, d_out, n);
  return cudaGetLastError();
}

#endif
