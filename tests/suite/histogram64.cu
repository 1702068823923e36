// A 64-bin histogram of bytes (each byte's top six bits pick its bin), the way image code builds
// one without atomics: every thread counts into its own column of byte-sized counters in shared
// memory, laid out so that neighbouring threads own neighbouring bytes of one word, then the
// block adds the columns up into 16-bit per-block counts (again neighbouring, one per thread), and
// a second kernel adds the blocks. No two threads write the same byte: this is not a race.
// Checked against a CPU count. Prints one PASS or FAIL line.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define BINS 64
#define THREADS 64
#define PER_THREAD 255 // a byte counter holds at most 255
#define BLOCKS 48
#define N (BLOCKS * THREADS * PER_THREAD)

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL histogram64: %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__);     \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

__global__ void block_histogram(const unsigned char *data, unsigned short *block_counts) {
  __shared__ unsigned char counters[BINS * THREADS]; // counters[bin * THREADS + thread]
  int t = threadIdx.x;
  for (int bin = 0; bin < BINS; bin++) counters[bin * THREADS + t] = 0;
  const unsigned char *mine = data + (blockIdx.x * THREADS + t) * PER_THREAD;
  for (int i = 0; i < PER_THREAD; i++) counters[(mine[i] >> 2) * THREADS + t]++;
  __syncthreads();
  // Thread t adds up bin t's row (THREADS == BINS).
  unsigned sum = 0;
  for (int j = 0; j < THREADS; j++) sum += counters[t * THREADS + (j + t) % THREADS];
  block_counts[blockIdx.x * BINS + t] = (unsigned short)sum;
}

__global__ void merge_blocks(const unsigned short *block_counts, unsigned *histogram) {
  int bin = threadIdx.x;
  unsigned sum = 0;
  for (int b = 0; b < BLOCKS; b++) sum += block_counts[b * BINS + bin];
  histogram[bin] = sum;
}

int main(void) {
  unsigned char *data = (unsigned char *)malloc(N);
  unsigned seed = 7u;
  for (int i = 0; i < N; i++) {
    seed = seed * 1103515245u + 12345u;
    // Skewed on purpose: some bins get far more than others.
    unsigned r = (seed >> 16) & 0xFF;
    data[i] = (unsigned char)((i % 7 == 0) ? 200 + (r % 4) : r);
  }
  unsigned expected[BINS] = {0}, got[BINS];
  for (int i = 0; i < N; i++) expected[data[i] >> 2]++;

  unsigned char *d_data;
  unsigned short *d_blocks;
  unsigned *d_hist;
  CHECK(cudaMalloc((void **)&d_data, N));
  CHECK(cudaMalloc((void **)&d_blocks, BLOCKS * BINS * sizeof(unsigned short)));
  CHECK(cudaMalloc((void **)&d_hist, BINS * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_data, data, N, cudaMemcpyHostToDevice));
  block_histogram<<<BLOCKS, THREADS>>>(d_data, d_blocks);
  CHECK(cudaGetLastError());
  merge_blocks<<<1, BINS>>>(d_blocks, d_hist);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(got, d_hist, sizeof got, cudaMemcpyDeviceToHost));

  int wrong = 0;
  for (int b = 0; b < BINS; b++) wrong += got[b] != expected[b];
  if (wrong == 0) {
    printf("PASS histogram64: %d bytes in %d bins, every count as the CPU's\n", N, BINS);
  } else {
    printf("FAIL histogram64: %d of %d bins differ from the CPU's\n", wrong, BINS);
  }
  cudaFree(d_data);
  cudaFree(d_blocks);
  cudaFree(d_hist);
  free(data);
  return wrong == 0 ? 0 : 1;
}
