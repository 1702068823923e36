/* cuda.h for the CPU simulator: the few driver API names teaching programs mention. */
#ifndef CUSIM_CUDA_H
#define CUSIM_CUDA_H
/* The toolkit's own guard name: programs test it (helper_cuda.h does). */
#define __cuda_cuda_h__
#pragma GCC system_header
#include "cuda_runtime_api.h"

typedef int CUdevice;
typedef enum cudaError_enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_UNKNOWN = 999
} CUresult;
#endif
