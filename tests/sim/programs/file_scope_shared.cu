// __shared__ variables declared at file scope, as NVIDIA's dct8x8 sample declares them: each
// block of every kernel that uses one has its own copy, uninitialized, as for a __shared__
// variable declared inside the kernel. A tree reduction in a __device__ function, a template
// kernel, a 2-D array, a struct, static volatile variables declared together, and an extern
// __shared__ array (dynamic shared memory) at file scope. Prints PASS or FAIL.
#include <cuda_runtime.h>
#include <stdio.h>

#define THREADS 128
#define BLOCKS 4

struct block_stats {
  int count;
  float total;
};

__shared__ float partial[THREADS];
static __shared__ volatile int tile[4][THREADS / 4], seen, *where[2];
__shared__ struct block_stats stats;
extern __shared__ float dynamic_buffer[];

// The tree reduction of partial[], in a device function: every kernel that calls it uses its
// block's own partial[].
__device__ float tree_sum(void) {
  for (unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) {
      partial[threadIdx.x] += partial[threadIdx.x + stride];
    }
    __syncthreads();
  }
  return partial[0];
}

__global__ void block_sums(const float *in, float *out) {
  float *mine = &partial[threadIdx.x];
  *mine = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  float sum = tree_sum();
  if (threadIdx.x == 0) {
    out[blockIdx.x] = sum;
  }
}

// A second kernel on the same partial[], a template, with the other variables.
template <class T> __global__ void block_checks(const T *in, T *out, int *errors, int *sizes) {
  unsigned int t = threadIdx.x;
  T value = in[blockIdx.x * blockDim.x + t];
  partial[t] = (float)value;
  dynamic_buffer[t] = (float)value;
  tile[t / (THREADS / 4)][t % (THREADS / 4)] = (int)(blockIdx.x * 1000 + t);
  if (t == 0) {
    stats.count = 0;
    stats.total = 0.0f;
    seen = (int)blockIdx.x + 1;
    where[1] = &seen;
  }
  __syncthreads();
  atomicAdd(&stats.count, 1);
  atomicAdd(&stats.total, (float)value);
  unsigned int other = THREADS - 1 - t;
  if (dynamic_buffer[other] != (float)in[blockIdx.x * blockDim.x + other] ||
      tile[other / (THREADS / 4)][other % (THREADS / 4)] != (int)(blockIdx.x * 1000 + other) ||
      seen != (int)blockIdx.x + 1 || *where[1] != seen) {
    atomicAdd(errors, 1);
  }
  __syncthreads();
  float sum = tree_sum();
  if (t == 0) {
    out[blockIdx.x] = (T)sum;
    if (stats.count != THREADS || stats.total != sum) {
      atomicAdd(errors, 1);
    }
    if (blockIdx.x == 0) {
      sizes[0] = (int)sizeof(partial);
      sizes[1] = (int)sizeof(tile);
      sizes[2] = (int)sizeof(stats);
      sizes[3] = (int)sizeof(seen);
    }
  }
}

int main(void) {
  const int n = THREADS * BLOCKS;
  float *in, *out;
  int *errors, *sizes;
  cudaMallocManaged(&in, n * sizeof(float));
  cudaMallocManaged(&out, BLOCKS * sizeof(float));
  cudaMallocManaged(&errors, sizeof(int));
  cudaMallocManaged(&sizes, 4 * sizeof(int));
  for (int i = 0; i < n; i++) {
    in[i] = (float)(i % 7 + 3 * (i / THREADS)); // each block its own values
  }
  *errors = 0;
  int wrong = 0;

  block_sums<<<BLOCKS, THREADS>>>(in, out);
  cudaError_t err = cudaDeviceSynchronize();
  for (int b = 0; b < BLOCKS; b++) {
    float expected = 0.0f;
    for (int i = b * THREADS; i < (b + 1) * THREADS; i++) expected += in[i];
    if (out[b] != expected) {
      printf("FAIL block_sums: block %d gives %g, expected %g\n", b, out[b], expected);
      wrong++;
    }
  }

  block_checks<float><<<BLOCKS, THREADS, THREADS * sizeof(float)>>>(in, out, errors, sizes);
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  for (int b = 0; b < BLOCKS; b++) {
    float expected = 0.0f;
    for (int i = b * THREADS; i < (b + 1) * THREADS; i++) expected += in[i];
    if (out[b] != expected) {
      printf("FAIL block_checks: block %d gives %g, expected %g\n", b, out[b], expected);
      wrong++;
    }
  }
  if (*errors != 0) {
    printf("FAIL block_checks: %d threads saw another block's shared memory\n", *errors);
    wrong++;
  }
  if (sizes[0] != THREADS * 4 || sizes[1] != THREADS * 4 || sizes[2] != 8 || sizes[3] != 4) {
    printf("FAIL sizeof: %d %d %d %d\n", sizes[0], sizes[1], sizes[2], sizes[3]);
    wrong++;
  }
  if (err != cudaSuccess) {
    printf("FAIL %s\n", cudaGetErrorString(err));
    wrong++;
  }
  if (wrong == 0) printf("PASS file-scope __shared__ variables\n");
  cudaFree(in);
  cudaFree(out);
  cudaFree(errors);
  cudaFree(sizes);
  return wrong == 0 ? 0 : 1;
}
