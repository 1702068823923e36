/* Lesson 16: the driver API functions this lesson calls, for the nvcc build, taken from the CUDA
 * runtime (cudaGetDriverEntryPointByVersion) instead of linking libcuda. A program linked with
 * libcuda does not even start on a machine without NVIDIA's driver; this one starts, finds no
 * device and says so (exit 77), as every other lesson does. You do not need to read this file:
 * on a machine with a GPU, linking -lcuda does the same job. The simulator has its own driver
 * API, so in a simulator build this file is empty. */
#include <cuda.h>

#ifndef CUSIM
#include <cuda_runtime_api.h>

/* The driver's function `name` with the ABI of `version` (cudaTypedefs.h's PFN_name_vVERSION).
 * Each version is the one whose parameters cuda.h declares: asking for CUDA_VERSION instead gives
 * the newest ABI, and CUDA 13's cuCtxSynchronize takes a context (a call without one failed with
 * CUDA_ERROR_CONTEXT_IS_DESTROYED on an H200). */
static void *entry_point(const char *name, int version) {
  void *function = NULL;
  enum cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  if (cudaGetDriverEntryPointByVersion(name, &function, version, cudaEnableDefault, &found) !=
          cudaSuccess ||
      found != cudaDriverEntryPointSuccess)
    return NULL;
  return function;
}

/* Defines NAME (the symbol cuda.h's macros name, e.g. cuMemAlloc_v2) as a call of the driver's
 * own. Without a driver every call returns CUDA_ERROR_NOT_INITIALIZED. */
#define FORWARD(name, version, params, args)                                                       \
  CUresult CUDAAPI name params {                                                                   \
    static CUresult(CUDAAPI *driver) params = NULL;                                                \
    if (driver == NULL) *(void **)&driver = entry_point(#name, version);                           \
    return driver ? driver args : CUDA_ERROR_NOT_INITIALIZED;                                      \
  }

FORWARD(cuGetErrorName, 6000, (CUresult error, const char **text), (error, text))
FORWARD(cuGetErrorString, 6000, (CUresult error, const char **text), (error, text))
FORWARD(cuInit, 2000, (unsigned int flags), (flags))
FORWARD(cuDeviceGet, 2000, (CUdevice * device, int ordinal), (device, ordinal))
FORWARD(cuDevicePrimaryCtxRetain, 7000, (CUcontext * context, CUdevice device), (context, device))
FORWARD(cuDevicePrimaryCtxRelease, 11000, (CUdevice device), (device))
FORWARD(cuCtxSetCurrent, 4000, (CUcontext context), (context))
FORWARD(cuCtxSynchronize, 2000, (void), ())
FORWARD(cuMemAlloc, 3020, (CUdeviceptr * pointer, size_t bytes), (pointer, bytes))
FORWARD(cuMemFree, 3020, (CUdeviceptr pointer), (pointer))
FORWARD(cuMemcpyHtoD, 3020, (CUdeviceptr to, const void *from, size_t bytes), (to, from, bytes))
FORWARD(cuMemcpyDtoH, 3020, (void *to, CUdeviceptr from, size_t bytes), (to, from, bytes))
FORWARD(cuMemsetD32, 3020, (CUdeviceptr to, unsigned int value, size_t count), (to, value, count))
FORWARD(cuModuleLoadData, 2000, (CUmodule * module, const void *image), (module, image))
FORWARD(cuModuleGetFunction, 2000, (CUfunction * function, CUmodule module, const char *name),
        (function, module, name))
FORWARD(cuModuleUnload, 2000, (CUmodule module), (module))
FORWARD(cuLaunchKernel, 4000,
        (CUfunction f, unsigned int grid_x, unsigned int grid_y, unsigned int grid_z,
         unsigned int block_x, unsigned int block_y, unsigned int block_z,
         unsigned int shared_bytes, CUstream stream, void **params, void **extra),
        (f, grid_x, grid_y, grid_z, block_x, block_y, block_z, shared_bytes, stream, params, extra))
#else
typedef int lesson16_driver_api_is_the_simulators; /* (an empty file is not valid C) */
#endif
