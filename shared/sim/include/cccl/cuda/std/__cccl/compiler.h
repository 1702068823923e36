/* The simulator's wrapper of CCCL's compiler detection (see ../../../README.md). The simulator
   compiles a .cu file in one host pass, where nvcc's macros are defined for the program's sake;
   CCCL must see what it is, a host compiler, so its headers take their host-only code (no
   __host__ __device__ marks, no device intrinsics). Hidden here only: CCCL decides once. */
#pragma GCC system_header
#pragma push_macro("__CUDACC__")
#pragma push_macro("__NVCC__")
#undef __CUDACC__
#undef __NVCC__
/* The small float types (the simulator has none) and its half types stay out of libcu++. */
#ifndef CCCL_DISABLE_FP16_SUPPORT
#define CCCL_DISABLE_FP16_SUPPORT
#endif
#ifndef CCCL_DISABLE_BF16_SUPPORT
#define CCCL_DISABLE_BF16_SUPPORT
#endif
#ifndef CCCL_DISABLE_NVFP8_SUPPORT
#define CCCL_DISABLE_NVFP8_SUPPORT
#endif
#ifndef CCCL_DISABLE_NVFP6_SUPPORT
#define CCCL_DISABLE_NVFP6_SUPPORT
#endif
#ifndef CCCL_DISABLE_NVFP4_SUPPORT
#define CCCL_DISABLE_NVFP4_SUPPORT
#endif
#include_next <cuda/std/__cccl/compiler.h>
#pragma pop_macro("__CUDACC__")
#pragma pop_macro("__NVCC__")
