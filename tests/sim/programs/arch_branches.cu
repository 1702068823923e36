// __CUDA_ARCH__ as nvcc defines it: in device code only, where it is the architecture the code
// was compiled for (900 for nvcc -arch=sm_90, run on an H100 or H200, whose compute capability
// cudaGetDeviceProperties reports as 9.0; 750 for -arch=sm_75 there); host code never sees it. Each
// test below has two branches that give different answers; a GPU runs the device branch in kernels
// and device functions, in this file and in the included header, and the host branch in main.
#include <cuda_runtime.h>
#include <stdio.h>

#include "arch_branches.cuh"

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL arch_branches: %s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));     \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

// A template and a specialization that only architectures 8.0 and later have (the reduction
// sample specializes its warp sum for int this way).
template <class T> __device__ T warp_total(T x) {
  return 32 * x;
}
#if __CUDA_ARCH__ >= 800
template <> __device__ int warp_total<int>(int x) {
  return 32 * x + 1;
}
#endif

// A __device__ function whose body tests the macro.
__device__ int architecture(void) {
#ifdef __CUDA_ARCH__
  return __CUDA_ARCH__;
#else
  return 0;
#endif
}

// __constant__ memory whose initial value differs between the passes: the device's copy is the
// device pass's.
__constant__ int table[2] = {
#ifdef __CUDA_ARCH__
    7, 8
#else
    1, 2
#endif
};

// A kernel that reads each of the above, and whose last line is under #if __CUDA_ARCH__ >= 700.
__global__ void report(int *out) {
  out[0] = architecture();
  out[1] = warp_total(1);
  out[2] = table[0] + table[1];
#if __CUDA_ARCH__ >= 700
  out[3] = 700;
#endif
}

// Host code: no __CUDA_ARCH__ here.
static int host_architecture(void) {
#ifdef __CUDA_ARCH__
  return __CUDA_ARCH__;
#else
  return 0;
#endif
}

int main(void) {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  // The architecture the device's code was compiled for: the newest of those the build made
  // (nvcc -arch=sm_90: __CUDA_ARCH_LIST__ is 900, in host code too) that the device can run.
  int capability = prop.major * 100 + prop.minor * 10, device_arch = capability;
#ifdef __CUDA_ARCH_LIST__
  static const int built_for[] = {__CUDA_ARCH_LIST__};
  device_arch = 0;
  for (size_t i = 0; i < sizeof built_for / sizeof built_for[0]; i++) {
    if (built_for[i] <= capability && built_for[i] > device_arch) device_arch = built_for[i];
  }
#endif

  int *d_out;
  CHECK(cudaMalloc(&d_out, 4 * sizeof(int)));
  CHECK(cudaMemset(d_out, 0, 4 * sizeof(int)));
  report<<<1, 1>>>(d_out);
  CHECK(cudaGetLastError());
  int out[4];
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));

  int *d_header;
  CHECK(cudaMalloc(&d_header, 2 * sizeof(int)));
  header_kernel<<<1, 1>>>(d_header);
  CHECK(cudaGetLastError());
  int header[2];
  CHECK(cudaMemcpy(header, d_header, sizeof header, cudaMemcpyDeviceToHost));

  int initial[2];
  CHECK(cudaMemcpyFromSymbol(initial, table, sizeof initial));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_header));

  int wrong = 0;
  if (out[0] != device_arch) {
    printf("FAIL arch_branches: a kernel's __device__ function saw __CUDA_ARCH__ %d, not %d\n",
           out[0], device_arch);
    wrong++;
  }
  int want_total = device_arch >= 800 ? 33 : 32;
  if (out[1] != want_total) {
    printf("FAIL arch_branches: warp_total<int>(1) gave %d, not %d\n", out[1], want_total);
    wrong++;
  }
  if (out[2] != 15 || initial[0] != 7 || initial[1] != 8) {
    printf("FAIL arch_branches: __constant__ table is %d %d in the kernel (sum %d), not 7 8\n",
           initial[0], initial[1], out[2]);
    wrong++;
  }
  if (out[3] != 700) {
    printf("FAIL arch_branches: a kernel's #if __CUDA_ARCH__ >= 700 line did not run\n");
    wrong++;
  }
  if (header[0] != device_arch) {
    printf("FAIL arch_branches: the header's __device__ function saw __CUDA_ARCH__ %d, not %d\n",
           header[0], device_arch);
    wrong++;
  }
  if (header[1] != 10 * (device_arch / 100)) {
    printf("FAIL arch_branches: the header's kernel gave %d, not %d\n", header[1],
           10 * (device_arch / 100));
    wrong++;
  }
  if (host_architecture() != 0) {
    printf("FAIL arch_branches: host code saw __CUDA_ARCH__ %d\n", host_architecture());
    wrong++;
  }
  if (wrong != 0) return 1;
  printf("PASS arch_branches (__CUDA_ARCH__ %d in device code, undefined in host code)\n", out[0]);
  return 0;
}
