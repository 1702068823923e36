// A C++ object with virtual functions, built in __shared__ memory by one thread with placement
// new (as NVIDIA's newdelete sample does), then used by every thread of the block after a
// barrier. Each virtual call first reads the object's vtable pointer, which the constructor wrote:
// the memory checker must see that write (no "read of uninitialized __shared__ memory").
#include <cuda_runtime.h>
#include <new>
#include <stdio.h>

#define THREADS 128

struct Counter {
  int count;
  __device__ Counter() : count(0) {}
  __device__ virtual ~Counter() {}
  __device__ virtual void add(int n) { atomicAdd(&count, n); }
};

struct DoubleCounter : Counter {
  __device__ void add(int n) override { atomicAdd(&count, 2 * n); }
};

__global__ void count_in_shared(int *totals) {
  __shared__ __align__(16) unsigned char storage[sizeof(DoubleCounter)];
  __shared__ Counter *counter;
  if (threadIdx.x == 0) {
    counter = new (storage) DoubleCounter();
  }
  __syncthreads();
  counter->add(1);
  __syncthreads();
  if (threadIdx.x == 0) {
    totals[blockIdx.x] = counter->count;
    counter->~Counter();
  }
}

int main(void) {
  int *totals;
  if (cudaMallocManaged(&totals, 2 * sizeof(int)) != cudaSuccess) {
    printf("FAIL virtual_in_shared: cudaMallocManaged\n");
    return 1;
  }
  count_in_shared<<<2, THREADS>>>(totals);
  cudaError_t err = cudaDeviceSynchronize();
  int ok = err == cudaSuccess && totals[0] == 2 * THREADS && totals[1] == 2 * THREADS;
  if (ok) {
    printf("PASS virtual_in_shared: each block counted %d\n", totals[0]);
  } else {
    printf("FAIL virtual_in_shared: %s, totals %d and %d, want %d\n", cudaGetErrorString(err),
           totals[0], totals[1], 2 * THREADS);
  }
  cudaFree(totals);
  return ok ? 0 : 1;
}
