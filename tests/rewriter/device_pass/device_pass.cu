// cusim-rewrite --device-pass: this file preprocessed twice (host: no __CUDA_ARCH__; device:
// __CUDA_ARCH__ 900) and spliced. Each marker word must be in the output or not, at its line,
// as check_device_pass.sh lists; device_pass.notes holds the notes, exactly.
#include "device_pass_header.cuh"

__global__ void kernel(int *out) {
#if __CUDA_ARCH__ >= 700
  *out = 1; // kernel_device_branch
#else
  *out = 0; // kernel_host_branch
#endif
}

__device__ int device_function(void) {
#ifdef __CUDA_ARCH__
  return 1; // device_function_device_branch
#else
  return 0; // device_function_host_branch
#endif
}

// Only the device pass has it: device code calls it.
#if __CUDA_ARCH__ >= 700
__device__ int gated_function(void) {
  return 2; // gated_function_device_only
}
struct gated_helper {
  int gated_helper_device_only;
};
#endif

// A __device__ function written twice: nvcc never compiles the host pass's.
#ifndef __CUDA_ARCH__
__device__ int twin(void) {
  return 0; // twin_host_pass
}
#else
__device__ int twin(void) {
  return 1; // twin_device_pass
}
#endif

// __constant__ memory with a different initializer: the device pass's, the word blanked.
__constant__ int table[2] = {
#ifdef __CUDA_ARCH__
    7, 8 // table_device_branch
#else
    1, 2               // table_host_branch
#endif
};

// Host code keeps the host branch, with no note (kernels never run it).
int host_function(void) {
#ifdef __CUDA_ARCH__
  return 1; // host_function_device_branch
#else
  return 0;            // host_function_host_branch
#endif
}

// The simulator cannot be exact: one function for both sides runs the host branch (a note).
__host__ __device__ int both(void) {
#ifdef __CUDA_ARCH__
  return 1; // both_device_branch
#else
  return 0;            // both_host_branch
#endif
}

// Nor where each pass declares its own: the host's is kept (a note).
#ifdef __CUDA_ARCH__
typedef float real_t; // real_t_device_branch
#else
typedef double real_t; // real_t_host_branch
#endif

// A class: its __device__ member takes the device branch, its __host__ __device__ one the host's.
struct widget {
  __device__ int device_member(void) {
#ifdef __CUDA_ARCH__
    return 1; // device_member_device_branch
#else
    return 0;          // device_member_host_branch
#endif
  }
  __host__ __device__ int shared_member(void) {
#ifdef __CUDA_ARCH__
    return 1; // shared_member_device_branch
#else
    return 0;          // shared_member_host_branch
#endif
  }
};
