// A __device__ global variable as a counter: kernels increment it with atomics, the host reads it
// with cudaMemcpyFromSymbol and resets it with cudaMemcpyToSymbol. Also a __device__ array the
// kernel fills, read back through cudaGetSymbolAddress.
#include <cuda_runtime.h>
#include <stdio.h>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL %s:%d: %s\\n", __FILE__, __LINE__, cudaGetErrorString(err_));                   \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

__device__ unsigned int matches = 0;
__device__ int first_multiples[16];

// Counts the multiples of divisor below n, and records the first few.
__global__ void count_multiples(int n, int divisor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i % divisor == 0) {
    unsigned int slot = atomicAdd(&matches, 1u);
    (void)slot;
    if (i / divisor < 16) {
      first_multiples[i / divisor] = i;
    }
  }
}

int main(void) {
  const int n = 100000;
  count_multiples<<<(n + 255) / 256, 256>>>(n, 7);
  CHECK(cudaGetLastError());
  unsigned int sevens = 0;
  CHECK(cudaMemcpyFromSymbol(&sevens, matches, sizeof sevens));

  unsigned int zero = 0;
  CHECK(cudaMemcpyToSymbol(matches, &zero, sizeof zero));
  count_multiples<<<(n + 255) / 256, 256>>>(n, 11);
  CHECK(cudaGetLastError());
  unsigned int elevens = 0;
  CHECK(cudaMemcpyFromSymbol(&elevens, matches, sizeof elevens));

  int *d_first = NULL;
  CHECK(cudaGetSymbolAddress((void **)&d_first, first_multiples));
  int first[16];
  CHECK(cudaMemcpy(first, d_first, sizeof first, cudaMemcpyDeviceToHost));

  int wrong = sevens != (n + 6) / 7 || elevens != (n + 10) / 11;
  for (int k = 0; k < 16; ++k) {
    wrong += first[k] != 11 * k;
  }
  if (wrong != 0) {
    printf("FAIL device_counter: sevens %u, elevens %u, first[1] %d\n", sevens, elevens, first[1]);
    return 1;
  }
  printf("PASS device_counter\n");
  return 0;
}
