/* cusim_prelude.h: force-included (-include) into every rewritten .cu file of a simulator build,
   as nvcc implicitly includes cuda_runtime.h. Defines the CUDA qualifiers for the host compiler. */
#ifndef CUSIM_PRELUDE_H
#define CUSIM_PRELUDE_H
#pragma GCC system_header

/* What nvcc defines for a .cu file, in both of its passes (programs test them: `#ifdef
   __CUDACC__` around __host__ __device__, `__CUDACC_VER_MAJOR__ >= 11`); __CUDA_ARCH_LIST__ is
   the architectures a build makes code for (nvcc -arch=sm_90: 900, the simulated GPU's).
   __CUDA_ARCH__ is defined in nvcc's device pass only. A simulator build preprocesses the file
   as the host pass sees it and, where the program's own files mention __CUDA_ARCH__, a second
   time as the device pass does (CUSIM_DEVICE_PASS, below); cusim-rewrite --device-pass then
   takes the kernels and __device__-only functions from the second (rewriter/arch_passes.c). */
#define __CUDACC__ 1
#define __NVCC__ 1
#define __CUDACC_VER_MAJOR__ 13
#define __CUDACC_VER_MINOR__ 0
#define __CUDACC_VER_BUILD__ 0
#ifndef __CUDA_ARCH_LIST__ /* NVRTC defines its own (runtime/nvrtc.cpp) */
#define __CUDA_ARCH_LIST__ 900
#endif
#ifdef CUSIM_DEVICE_PASS
/* The variant the simulated GPU (cudaGetDeviceProperties: major 9, minor 0) would run: 900, or
   what nvcc-sim chose from -arch/-gencode (CUSIM_DEVICE_ARCH, e.g. 750 for nvcc 13's default). */
#ifdef CUSIM_DEVICE_ARCH
#define __CUDA_ARCH__ CUSIM_DEVICE_ARCH
#else
#define __CUDA_ARCH__ 900
#endif
#endif

/* Standard headers that use names the qualifier macros below would break
   (libstdc++'s shared_ptr_base.h writes __attribute__((__noinline__))): included first. */
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "cuda_runtime.h"

/* A build that preprocesses before rewriting (CUSIM_PREPROCESS) keeps these three for the
   rewriter, which checks execution spaces, and defines them away when it compiles. */
#ifdef CUSIM_PREPROCESS
#define __global__ __global__ /* defined, as nvcc has them, yet left in the text */
#define __device__ __device__
#define __host__ __host__
#else
#define __global__
#define __device__
#define __host__
#endif
#ifdef CUSIM_DEVICE_PASS
#define __constant__ __constant__ /* the splice needs it; the merged file has it blanked */
#else
#define __constant__
#endif
#define __managed__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
/* Kept through preprocessing for the rewriter, which passes its arguments to the kernel's
   registration (cusim_launch_kernel.h) and then removes it. */
#ifdef CUSIM_PREPROCESS
#define __launch_bounds__(...) __launch_bounds__(__VA_ARGS__)
#else
#define __launch_bounds__(...)
#endif
#define __maxnreg__(n)
#define __grid_constant__
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __device_builtin__
#define __cudart_builtin__
#define __inline_hint__

/* assert in a kernel reports like CUDA's device assert (see the simulator's assert.h). */
#define CUSIM_DEVICE_ASSERT 1
#include <assert.h>

#endif
