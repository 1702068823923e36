// Device code of arch_branches.cu that tests __CUDA_ARCH__ in an included header: nvcc compiles
// it for the device with __CUDA_ARCH__ defined (900 for sm_90), so a kernel gets the first
// branch of each test below; the second is what a host-only compile would see.
#ifndef ARCH_BRANCHES_CUH
#define ARCH_BRANCHES_CUH

// A __device__ function whose body tests the macro.
__device__ int header_architecture(void) {
#ifdef __CUDA_ARCH__
  return __CUDA_ARCH__;
#else
  return -1;
#endif
}

// A __device__ function that exists only for architectures 7.0 and later (the shape of NVIDIA's
// samples, which wrap whole functions in #if __CUDA_ARCH__ >= 700).
#if __CUDA_ARCH__ >= 700
__device__ int header_volta_or_later(int x) {
  return 10 * x;
}
#endif

// A kernel whose body tests the macro.
__global__ void header_kernel(int *out) {
  out[0] = header_architecture();
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  out[1] = header_volta_or_later(__CUDA_ARCH__ / 100);
#else
  out[1] = -2;
#endif
}

#endif
