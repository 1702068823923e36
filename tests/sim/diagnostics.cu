// Each case makes one mistake a learner makes; the simulator must name it. The CTest entries in
// CMakeLists.txt run one case each and match the message. Usage: diagnostics CASE
#undef NDEBUG // the device_assert case needs assert, also in Release builds
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

static void show(const char *call, cudaError_t e) {
  std::printf("%s -> %s: %s\n", call, cudaGetErrorName(e), cudaGetErrorString(e));
}
#define SHOW(call) show(#call, call)

__global__ void fill(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 1.0f;
}

__global__ void two_barriers(float *x) {
  __shared__ float s[64];
  s[threadIdx.x] = 1.0f;
  if (threadIdx.x < 32) {
    __syncthreads();
  } else {
    __syncthreads();
  }
  x[threadIdx.x] = s[63 - threadIdx.x];
}

__global__ void exit_before_barrier(float *x, int n) {
  __shared__ float s[64];
  int i = threadIdx.x;
  if (i >= n) return; // the threads past n never reach the barrier below
  s[i] = 1.0f;
  __syncthreads();
  x[i] = s[n - 1 - i];
}

__global__ void shuffle_after_exit(int *x, int n) {
  int i = threadIdx.x;
  if (i >= n) return;
  int v = x[i];
  v += __shfl_down_sync(0xffffffffu, v, 1);
  x[i] = v;
}

// The reduction sample's last step before sm_80: lanes 0-7 add lanes 16, 8 and 4 above them, but
// only lanes 0-7 are in the mask, so lane 0 reads lane 16, which a GPU leaves undefined.
__global__ void shuffle_outside_mask(int *x) {
  int lane = threadIdx.x & 31;
  unsigned mask = __ballot_sync(0xffffffffu, lane < 8);
  if (lane < 8) {
    int v = x[lane];
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(mask, v, offset);
    x[lane] = v;
  }
}

// A block of 16 threads whose full-warp butterfly reads lanes 16-31, where no thread exists.
__global__ void shuffle_missing_lane(int *x) {
  int v = x[threadIdx.x];
  for (int m = 16; m > 0; m /= 2) v += __shfl_xor_sync(0xffffffffu, v, m);
  x[threadIdx.x] = v;
}

__global__ void checks(const int *x) {
  assert(x[threadIdx.x] >= 0);
}

int main(int argc, char **argv) {
  const char *c = argc > 1 ? argv[1] : "";
  float *d = nullptr;
  cudaMalloc(&d, 64 * sizeof(float));
  if (!std::strcmp(c, "invalid_config")) {
    fill<<<1, 0>>>(d, 64);
    SHOW(cudaPeekAtLastError());
    fill<<<1, 2048>>>(d, 64);
    SHOW(cudaPeekAtLastError());
    fill<<<1, dim3(1, 1, 65)>>>(d, 64);
    SHOW(cudaPeekAtLastError());
    fill<<<0, 64>>>(d, 64);
    SHOW(cudaPeekAtLastError());
    // The limit is the kernel's own: another kernel's raised limit does not raise fill's.
    cudaFuncSetAttribute(two_barriers, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
    fill<<<1, 64, 64 * 1024>>>(d, 64);
    SHOW(cudaGetLastError());
    fill<<<1, 64>>>(d, 64);
    SHOW(cudaGetLastError()); // a good launch after: no error
    cudaFuncSetAttribute(fill, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
    fill<<<1, 64, 64 * 1024>>>(d, 64); // now within fill's limit
    SHOW(cudaGetLastError());
    SHOW(cudaDeviceSynchronize());
  } else if (!std::strcmp(c, "barrier_divergence")) {
    two_barriers<<<1, 64>>>(d);
    SHOW(cudaGetLastError()); // the launch itself is fine
    SHOW(cudaDeviceSynchronize());
    SHOW(cudaMemset(d, 0, 4)); // the error is sticky, as on a GPU
  } else if (!std::strcmp(c, "barrier_exit")) {
    exit_before_barrier<<<1, 64>>>(d, 40);
    SHOW(cudaDeviceSynchronize());
  } else if (!std::strcmp(c, "deadlock")) {
    int *x;
    cudaMallocManaged(&x, 32 * sizeof(int));
    for (int i = 0; i < 32; ++i) x[i] = i;
    shuffle_after_exit<<<1, 32>>>(x, 20);
    SHOW(cudaDeviceSynchronize());
  } else if (!std::strcmp(c, "shuffle_outside_mask") || !std::strcmp(c, "shuffle_missing_lane")) {
    int *x;
    cudaMallocManaged(&x, 32 * sizeof(int));
    for (int i = 0; i < 32; ++i) x[i] = i;
    if (c[8] == 'o')
      shuffle_outside_mask<<<1, 32>>>(x);
    else
      shuffle_missing_lane<<<1, 16>>>(x);
    SHOW(cudaDeviceSynchronize());
    cudaFree(x);
  } else if (!std::strcmp(c, "double_free")) {
    SHOW(cudaFree(d));
    SHOW(cudaFree(d));
  } else if (!std::strcmp(c, "free_host")) {
    float *h = (float *)std::malloc(64);
    SHOW(cudaFree(h));
    std::free(h);
  } else if (!std::strcmp(c, "copy_freed")) {
    float h[64];
    cudaFree(d);
    SHOW(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  } else if (!std::strcmp(c, "copy_never_allocated")) {
    float h[64], h2[64];
    SHOW(cudaMemcpy(h2, h, sizeof h, cudaMemcpyDeviceToHost));
  } else if (!std::strcmp(c, "wrong_direction")) {
    float h[64] = {0};
    SHOW(cudaMemcpy(h, d, sizeof h, cudaMemcpyHostToDevice)); // swapped: dst is host, src is device
  } else if (!std::strcmp(c, "copy_too_big")) {
    float h[128] = {0};
    SHOW(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice)); // 512 bytes into 256
  } else if (!std::strcmp(c, "host_pointer")) {
    float h[64];
    fill<<<1, 64>>>(h, 64);
    SHOW(cudaGetLastError());
    SHOW(cudaDeviceSynchronize());
  } else if (!std::strcmp(c, "device_assert")) {
    int *x;
    cudaMallocManaged(&x, 64 * sizeof(int));
    for (int i = 0; i < 64; ++i) x[i] = i == 37 ? -1 : i;
    checks<<<2, 64>>>(x);
    SHOW(cudaDeviceSynchronize());
  } else if (!std::strcmp(c, "no_sync")) {
    // Forgetting to synchronize: the kernel has not run yet when the host reads.
    float *m;
    cudaMallocManaged(&m, 64 * sizeof(float));
    m[0] = 0.0f;
    fill<<<1, 64>>>(m, 64);
    std::printf("before sync: %g\n", m[0]);
    cudaDeviceSynchronize();
    std::printf("after sync: %g\n", m[0]);
  } else if (!std::strcmp(c, "leak")) {
    // Device memory never freed: listed at exit by the line that allocated it (a GPU says nothing).
    float *kept[2], *managed, *freed;
    for (int i = 0; i < 2; ++i) cudaMalloc(&kept[i], 1000); // leak-line
    cudaMallocManaged(&managed, 24);
    cudaMalloc(&freed, 64);
    cudaFree(freed);
    std::printf("returning from main\n");
  } else {
    std::fprintf(stderr, "usage: diagnostics CASE\n");
    return 2;
  }
  return 0;
}
