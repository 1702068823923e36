// A helper header in the style the CUDA samples' helpers are written in: its error-checking macro
// exists only when the toolkit's runtime header (by its own guard macro) came first, it insists
// on nvcc and a recent CUDA by their macros, and it holds a kernel with __shared__ memory and the
// launch of it.
#ifndef HELPER_STYLE_CUH
#define HELPER_STYLE_CUH

#include <cstdio>
#include <cstdlib>

#if !defined(__CUDACC__) || !defined(__NVCC__) || __CUDACC_VER_MAJOR__ < 11
#error "this header needs nvcc, CUDA 11 or later"
#endif
#if !defined(CUDART_VERSION) || CUDART_VERSION < 11000
#error "this header needs the CUDA 11 runtime or later"
#endif

#ifdef __CUDA_RUNTIME_H__
#define check_cuda(call) report_cuda_error((call), #call, __FILE__, __LINE__)
template <class T> void report_cuda_error(T result, const char *what, const char *file, int line) {
  if (result != cudaSuccess) {
    std::fprintf(stderr, "CUDA error at %s:%d: %s (%s)\n", file, line, cudaGetErrorName(result),
                 what);
    std::exit(EXIT_FAILURE);
  }
}
inline int pick_device() {
  int count = 0;
  check_cuda(cudaGetDeviceCount(&count));
  cudaDeviceProp prop;
  check_cuda(cudaGetDeviceProperties(&prop, 0));
  check_cuda(cudaSetDevice(0));
  std::printf("device 0 of %d: compute capability %d.%d\n", count, prop.major, prop.minor);
  return 0;
}
#endif

#ifdef __CUDACC__
#define HOST_DEVICE __host__ __device__
#else
#define HOST_DEVICE
#endif

HOST_DEVICE inline float square(float x) {
  return x * x;
}

template <int Threads> __global__ void sum_squares(const float *in, float *out) {
  __shared__ float part[Threads];
  unsigned t = threadIdx.x;
  part[t] = square(in[blockIdx.x * Threads + t]);
  __syncthreads();
  for (unsigned half = Threads / 2; half > 0; half /= 2) {
    if (t < half) part[t] += part[t + half];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = part[0];
}

inline void launch_sum_squares(const float *in, float *out, int blocks) {
  sum_squares<256><<<blocks, 256>>>(in, out);
  check_cuda(cudaGetLastError());
}

#endif
