// __launch_bounds__: a kernel compiled for at most 256 threads a block does not launch with 512,
// on a GPU (CUDA 13.0 on an H200 answers cudaErrorInvalidValue, not sticky) and on the simulator;
// cudaFuncGetAttributes and cudaOccupancyMaxPotentialBlockSize honour the bound, while
// cudaOccupancyMaxActiveBlocksPerMultiprocessor does not (for 512 threads it counts blocks by the
// multiprocessor's limits: an H200 answered 4). The failed launches are deliberate: the simulator
// reports each one.
#include <cstdio>

#define BOUND 256

__global__ void __launch_bounds__(BOUND) scale(float *x, int n); // a prototype with it too

__global__ void __launch_bounds__(BOUND) scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

__global__ void __launch_bounds__(2 * 64, 4) offset(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}

__global__ void unbounded(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] -= 1.0f;
}

// A template's bound (the simulator does not register templates: not honoured there, built).
template <int Threads> __global__ void __launch_bounds__(Threads) negate(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = -x[i];
}

static int failures = 0;
static void expect(int ok, const char *what) {
  if (!ok) {
    printf("FAIL launch_bounds: %s\n", what);
    failures++;
  }
}

int main() {
  const int n = 1024;
  float host[n];
  for (int i = 0; i < n; i++) host[i] = (float)i;
  float *d = NULL;
  cudaMalloc((void **)&d, sizeof host);
  cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice);

  cudaFuncAttributes a, b, c;
  expect(cudaFuncGetAttributes(&a, scale) == cudaSuccess && a.maxThreadsPerBlock == BOUND,
         "cudaFuncGetAttributes(scale).maxThreadsPerBlock is not 256");
  expect(cudaFuncGetAttributes(&b, offset) == cudaSuccess && b.maxThreadsPerBlock == 128,
         "cudaFuncGetAttributes(offset).maxThreadsPerBlock is not 128");
  expect(cudaFuncGetAttributes(&c, unbounded) == cudaSuccess && c.maxThreadsPerBlock == 1024,
         "cudaFuncGetAttributes(unbounded).maxThreadsPerBlock is not 1024");

  scale<<<n / BOUND, BOUND>>>(d, n); // within the bound: runs
  expect(cudaGetLastError() == cudaSuccess, "a launch of 256 threads failed");
  scale<<<n / 512, 512>>>(d, n); // above it: refused, and nothing runs
  cudaError_t over = cudaGetLastError();
  expect(over == cudaErrorInvalidValue, "a launch of 512 threads did not fail");
  expect(cudaGetLastError() == cudaSuccess, "the failed launch's error is sticky");
  offset<<<n / 128, 128>>>(d, n);
  expect(cudaGetLastError() == cudaSuccess, "a launch of 128 threads of offset failed");
  offset<<<n / 256, 256>>>(d, n);
  expect(cudaGetLastError() == cudaErrorInvalidValue,
         "a launch of 256 threads of offset did not fail");
  unbounded<<<1, 1024>>>(d, n);
  expect(cudaGetLastError() == cudaSuccess, "a launch of 1024 threads of unbounded failed");

  negate<64><<<n / 64, 64>>>(d, n); // twice: the values come back
  negate<64><<<n / 64, 64>>>(d, n);
  expect(cudaGetLastError() == cudaSuccess, "a launch of 64 threads of negate<64> failed");

  int count = n;
  void *args[] = {&d, &count};
  expect(cudaLaunchKernel((const void *)scale, dim3(1), dim3(1024), args, 0, 0) ==
             cudaErrorInvalidValue,
         "cudaLaunchKernel of 1024 threads of scale did not fail");
  cudaGetLastError();

  int blocks = -1;
  cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, scale, 512, 0);
  expect(e == cudaSuccess && blocks > 0,
         "cudaOccupancyMaxActiveBlocksPerMultiprocessor applied the bound (a GPU does not)");
  cudaGetLastError();
  int min_grid = 0, block = 0;
  e = cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, scale, 0, 0);
  expect(e == cudaSuccess && block > 0 && block <= BOUND,
         "cudaOccupancyMaxPotentialBlockSize chose a block above the bound");

  expect(cudaDeviceSynchronize() == cudaSuccess, "cudaDeviceSynchronize failed");
  cudaMemcpy(host, d, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(d);
  for (int i = 0; i < n; i++) {
    float want = (float)i * 2.0f; // doubled once, +1 by offset, -1 by unbounded
    if (host[i] != want) {
      printf("FAIL launch_bounds: x[%d] is %g, not %g\n", i, host[i], want);
      return 1;
    }
  }
  if (failures) return 1;
  printf("PASS launch_bounds\n");
  return 0;
}
