// Any __shared__ declaration nvcc accepts inside a kernel (issue 27, item 5): several declarators
// in one line (__shared__ float a[16], b[16]; and __shared__ int x, y[4]; as Rodinia's
// particlefilter writes them), extern __shared__ arrays of a struct and of double carved from one
// dynamic allocation, and __shared__ in a __device__ function (one per block, as on a GPU). Each
// kernel's answer is checked against the host's. nvcc builds this file
// (unit.sim.shared_declarations.builds_with_nvcc). Prints "shared declarations: ok".
#include <cstdio>
#include <cuda_runtime.h>

enum { block_size = 16, blocks = 3 };

__global__ void two_arrays(const float *in, float *out) {
  __shared__ float a[block_size], b[block_size];
  __shared__ int x, y[4];
  unsigned t = threadIdx.x;
  a[t] = in[blockIdx.x * block_size + t];
  b[t] = 2.0f * a[t];
  if (t < 4) y[t] = (int)t + 1;
  if (t == 0) x = 10;
  __syncthreads();
  // each thread: its a, its mirror's b, x and y[t % 4]
  out[blockIdx.x * block_size + t] = a[t] + b[block_size - 1 - t] + (float)(x + y[t % 4]);
}

struct pair {
  int key;
  float value;
};

__global__ void dynamic_arrays(const float *in, float *out) {
  extern __shared__ pair pairs[];
  extern __shared__ double sums[]; // the same memory as pairs, as under CUDA
  unsigned t = threadIdx.x;
  pair *mine = &pairs[t];
  mine->key = (int)t;
  mine->value = in[blockIdx.x * block_size + t];
  __syncthreads();
  float v = pairs[block_size - 1 - t].value + (float)pairs[block_size - 1 - t].key;
  __syncthreads();
  double *tail = (double *)(pairs + block_size); // after the pairs: one double per thread
  tail[t] = (double)v;
  __syncthreads();
  out[blockIdx.x * block_size + t] = (float)(tail[(t + 1) % block_size] + (sums == (void *)pairs));
}

__device__ int block_total(int value) {
  __shared__ int partial[block_size], total;
  partial[threadIdx.x] = value;
  __syncthreads();
  if (threadIdx.x == 0) {
    total = 0;
    for (int i = 0; i < block_size; i++) total += partial[i];
  }
  __syncthreads();
  return total;
}

__global__ void totals(int *out) {
  out[blockIdx.x * block_size + threadIdx.x] = block_total((int)(blockIdx.x * 100 + threadIdx.x));
}

static int check(const char *what, const float *got, const float *want, int n) {
  for (int i = 0; i < n; i++)
    if (got[i] != want[i]) {
      printf("%s[%d] = %g, want %g\n", what, i, got[i], want[i]);
      return 1;
    }
  return 0;
}

int main() {
  enum { n = block_size * blocks };
  float *in, *out;
  int *sums;
  cudaMallocManaged(&in, n * sizeof(float));
  cudaMallocManaged(&out, n * sizeof(float));
  cudaMallocManaged(&sums, n * sizeof(int));
  for (int i = 0; i < n; i++) in[i] = (float)(i % 7) - 2.5f;
  float want[n];
  int wrong = 0;

  two_arrays<<<blocks, block_size>>>(in, out);
  wrong |= cudaDeviceSynchronize() != cudaSuccess;
  for (int i = 0; i < n; i++) {
    int base = i / block_size * block_size, t = i % block_size;
    want[i] = in[i] + 2.0f * in[base + block_size - 1 - t] + (float)(10 + t % 4 + 1);
  }
  wrong |= check("two_arrays", out, want, n);

  size_t bytes = block_size * (sizeof(pair) + sizeof(double));
  dynamic_arrays<<<blocks, block_size, bytes>>>(in, out);
  wrong |= cudaDeviceSynchronize() != cudaSuccess;
  for (int i = 0; i < n; i++) {
    int base = i / block_size * block_size, t = (i % block_size + 1) % block_size;
    int mirror = block_size - 1 - t;
    want[i] = (float)((double)(in[base + mirror] + (float)mirror) + 1.0);
  }
  wrong |= check("dynamic_arrays", out, want, n);

  totals<<<blocks, block_size>>>(sums);
  wrong |= cudaDeviceSynchronize() != cudaSuccess;
  for (int i = 0; i < n && !wrong; i++) {
    int b = i / block_size, expected = b * 100 * block_size + block_size * (block_size - 1) / 2;
    if (sums[i] != expected) {
      printf("totals[%d] = %d, want %d\n", i, sums[i], expected);
      wrong = 1;
    }
  }
  cudaFree(in);
  cudaFree(out);
  cudaFree(sums);
  printf(wrong ? "shared declarations: wrong\n" : "shared declarations: ok\n");
  return wrong;
}
