// Launches a GPU refuses for their shape, and the error each gets. CUDA 13.0 on an H200 (driver
// 580) answers cudaErrorInvalidValue for every one (seen: tests/gpu/semantics.list checks it
// there), not the cudaErrorInvalidConfiguration older documentation names; none is sticky, and
// nothing runs. Prints one line per launch, then "launch config: ok" or "launch config: N wrong".
#include <cstdio>
#include <cuda_runtime.h>

__global__ void count(int *runs) {
  atomicAdd(runs, 1);
}
__global__ void __launch_bounds__(256) bounded(int *runs) {
  atomicAdd(runs, 1);
}

static int wrong = 0;
static void launch(const char *what, const void *kernel, dim3 grid, dim3 block, size_t shared,
                   int *runs) {
  void *args[] = {&runs};
  cudaError_t got = cudaLaunchKernel(kernel, grid, block, args, shared, 0);
  cudaError_t again = cudaGetLastError();
  cudaError_t wait = cudaDeviceSynchronize();
  int ok = got == cudaErrorInvalidValue && again == cudaErrorInvalidValue && wait == cudaSuccess;
  std::printf("%-34s %s%s\n", what, cudaGetErrorName(got), ok ? "" : "  WRONG");
  wrong += !ok;
  cudaGetLastError();
}

int main() {
  int *runs = nullptr;
  cudaMalloc(&runs, sizeof(int));
  cudaMemset(runs, 0, sizeof(int));
  const void *k = (const void *)count;
  launch("block of 2048 threads", k, 1, 2048, 0, runs);
  launch("block (1, 1, 128)", k, 1, dim3(1, 1, 128), 0, runs);
  launch("block (32, 32, 2)", k, 1, dim3(32, 32, 2), 0, runs);
  launch("block with a 0", k, 1, dim3(0, 1, 1), 0, runs);
  launch("grid with a 0", k, dim3(0, 1, 1), 32, 0, runs);
  launch("grid (1, 65536, 1)", k, dim3(1, 65536, 1), 32, 0, runs);
  launch("grid (2^31, 1, 1)", k, dim3(0x80000000u, 1, 1), 1, 0, runs);
  launch("48 KiB + 1 of dynamic shared memory", k, 1, 32, 48 * 1024 + 1, runs);
  launch("512 threads, __launch_bounds__(256)", (const void *)bounded, 1, 512, 0, runs);
  // The <<< >>> form reports the same error through cudaGetLastError.
  count<<<1, 2048>>>(runs);
  cudaError_t chevrons = cudaGetLastError();
  std::printf("%-34s %s\n", "<<<1, 2048>>>", cudaGetErrorName(chevrons));
  wrong += chevrons != cudaErrorInvalidValue;
  int ran = -1;
  cudaMemcpy(&ran, runs, sizeof ran, cudaMemcpyDeviceToHost);
  if (ran != 0) {
    std::printf("a refused launch ran %d blocks\n", ran);
    ++wrong;
  }
  cudaFree(runs);
  if (wrong)
    std::printf("launch config: %d wrong\n", wrong);
  else
    std::printf("launch config: ok\n");
  return wrong ? 1 : 0;
}
