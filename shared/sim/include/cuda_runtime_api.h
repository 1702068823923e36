/* cuda_runtime_api.h for the CPU simulator: the C runtime API (callable from .c files). The
   functions behave as CUDA 13's do, on a simulated device that runs kernels on the host CPU. */
#ifndef CUSIM_CUDA_RUNTIME_API_H
#define CUSIM_CUDA_RUNTIME_API_H
/* The toolkit's own guard name: programs test it (helper_cuda.h does). */
#define __CUDA_RUNTIME_API_H__
#pragma GCC system_header

#include "driver_types.h"
#include <stddef.h>

#include "cusim_texture.h" /* texture objects and CUDA arrays (issue 18) */

#define CUDART_VERSION 13000
#define __CUDART_API_VERSION CUDART_VERSION
#define CUDA_VERSION 13000
/* Marks a build for the simulator (__CUDACC__ for .cu files, __CUDA_ARCH__ in device code). */
#define CUSIM 1

#ifdef __cplusplus
#define CUSIM_DEFAULT(v) = v
extern "C" {
#else
#define CUSIM_DEFAULT(v)
#endif

/* Device management */
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaSetDeviceFlags(unsigned int flags);
cudaError_t cudaGetDeviceFlags(unsigned int *flags);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit);
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config);
cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
cudaError_t cudaDriverGetVersion(int *driverVersion);
cudaError_t cudaRuntimeGetVersion(int *runtimeVersion);
cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop);
cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags);
cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice);
cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
cudaError_t cudaDeviceDisablePeerAccess(int peerDevice);

/* Errors */
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorName(cudaError_t error);
const char *cudaGetErrorString(cudaError_t error);

/* Memory */
cudaError_t cudaMalloc(void **devPtr, size_t size);
cudaError_t cudaFree(void *devPtr);
cudaError_t cudaMallocManaged(void **devPtr, size_t size,
                              unsigned int flags CUSIM_DEFAULT(cudaMemAttachGlobal));
cudaError_t cudaMallocHost(void **ptr, size_t size);
cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags);
cudaError_t cudaHostUnregister(void *ptr);
cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);
cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost);
cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream CUSIM_DEFAULT(0));
cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice,
                                size_t count, cudaStream_t stream CUSIM_DEFAULT(0));
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind kind,
                              cudaStream_t stream CUSIM_DEFAULT(0));
cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count);
cudaError_t cudaMemset(void *devPtr, int value, size_t count);
cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
                            cudaStream_t stream CUSIM_DEFAULT(0));
cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height);
cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream CUSIM_DEFAULT(0));
cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                          struct cudaMemLocation location);
/* Symbols (__device__, __constant__ and __managed__ variables): symbol is the variable's address
   here; in C++ the overloads in cuda_runtime.h take the variable itself, as CUDA's do. */
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                               size_t offset CUSIM_DEFAULT(0),
                               enum cudaMemcpyKind kind CUSIM_DEFAULT(cudaMemcpyHostToDevice));
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                                 size_t offset CUSIM_DEFAULT(0),
                                 enum cudaMemcpyKind kind CUSIM_DEFAULT(cudaMemcpyDeviceToHost));
cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                    size_t offset, enum cudaMemcpyKind kind,
                                    cudaStream_t stream CUSIM_DEFAULT(0));
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind,
                                      cudaStream_t stream CUSIM_DEFAULT(0));
cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol);
cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol);

/* Stream-ordered allocation and memory pools */
cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream);
cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream);
cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool,
                                    cudaStream_t stream);
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device);
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device);
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool);
cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps);
cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value);
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value);
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep);
cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const struct cudaMemAccessDesc *descList,
                                 size_t count);
cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool,
                                 struct cudaMemLocation *location);

/* Streams */
cudaError_t cudaStreamCreate(cudaStream_t *pStream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr,
                                     size_t length CUSIM_DEFAULT(0),
                                     unsigned int flags CUSIM_DEFAULT(cudaMemAttachSingle));
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                unsigned int flags CUSIM_DEFAULT(0));
cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority);
cudaError_t cudaStreamSetAttribute(cudaStream_t hStream, cudaStreamAttrID attr,
                                   const cudaStreamAttrValue *value);
cudaError_t cudaStreamGetAttribute(cudaStream_t hStream, cudaStreamAttrID attr,
                                   cudaStreamAttrValue *value_out);
cudaError_t cudaCtxResetPersistingL2Cache(void);
cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData);
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                  void *userData, unsigned int flags);

/* Events */
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream CUSIM_DEFAULT(0));
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream CUSIM_DEFAULT(0),
                                     unsigned int flags CUSIM_DEFAULT(0));
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);

/* Kernels (func is the kernel function's address) */
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);
cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                          int blockSize, size_t dynamicSMemSize);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func,
                                                                   int blockSize,
                                                                   size_t dynamicSMemSize,
                                                                   unsigned int flags);

/* Profiler control: accepted, nothing to do. */
cudaError_t cudaProfilerStart(void);
/* The simulator's own (no CUDA API has it): bytes of device and managed memory allocated and
   not yet freed, so a check can tell a function that forgot a cudaFree. */
long long cusim_device_bytes_held(void);
/* The simulator's own: the task N of the workbook exercise that the latest "cusim: error:" line
   names as "(task N)" (the line of the access or call at fault), or 0. */
int cusim_last_error_task(void);
/* The simulator's own: the text of the latest "cusim: error:" line (without that prefix), or
   "", so a lesson's driver can tell two mistakes with one symptom apart. */
const char *cusim_last_error_message(void);
/* The simulator's own: the next kernel launched fails when it runs, as a kernel that faults
   does: its launch succeeds, and cudaDeviceSynchronize (or any later wait) returns the sticky
   cudaErrorLaunchFailure. A lesson's driver plants it (#ifdef CUSIM) to see that the learner's
   code checks the status of its wait; no GPU API can do this. */
void cusim_plant_kernel_failure(void);
/* The simulator's own, for the workbook's harness (wb_finish): the resources still live (device
   memory, streams, events, cuBLAS handles, cuRAND generators, NVRTC programs, modules) that a call
   in the learner's file made (a file with "// ---- task N" regions). Writes "task N: a cuBLAS
   handle made on line 57 is never destroyed" for the first of them by line into reason, and its
   file and line and the call that releases it into hint; returns how many there are. 0 after a
   kernel failed (the sticky error) and with CUSIM_LEAK_CHECK=0. */
int cusim_task_leaks(char *reason, size_t reason_size, char *hint, size_t hint_size);
/* The simulator's own, for the workbook's harness (wb_parse_args): the program's exit status is
   its own verdict. Otherwise a process in which the memory checker stopped a kernel and that
   exits 0 exits with CUSIM_ERROR_EXITCODE (default 1) and a line saying why, as
   compute-sanitizer --error-exitcode does. */
void cusim_exit_status_is_the_verdict(void);
/* nvcc-sim --unchecked: the program was built without the memory checker on purpose. */
void cusim_unchecked_build(void);
cudaError_t cudaProfilerStop(void);

#ifdef __cplusplus
}
#endif

#include "cusim_graph.h" /* CUDA graphs and stream capture */

#endif
