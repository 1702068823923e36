// Hello from every block: thread 0 of each block prints a line with device printf, and every
// thread signs in with an atomic so the host can check that all of them ran.
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

__global__ void hello(int *signed_in) {
  if (threadIdx.x == 0) {
    printf("Hello from block %d of %d (%d threads)\n", blockIdx.x, gridDim.x, blockDim.x);
  }
  atomicAdd(&signed_in[blockIdx.x], 1);
}

int main(void) {
  const int blocks = 8, threads = 64;
  int *signed_in;
  CHECK(cudaMalloc(&signed_in, blocks * sizeof(int)));
  CHECK(cudaMemset(signed_in, 0, blocks * sizeof(int)));
  hello<<<blocks, threads>>>(signed_in);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int counts[blocks];
  CHECK(cudaMemcpy(counts, signed_in, sizeof counts, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(signed_in));
  for (int b = 0; b < blocks; ++b) {
    if (counts[b] != threads) {
      printf("FAIL hello_blocks: block %d had %d threads sign in\n", b, counts[b]);
      return 1;
    }
  }
  printf("PASS hello_blocks\n");
  return 0;
}
