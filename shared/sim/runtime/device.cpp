// The runtime API: errors (names, strings, the last and the sticky error, the cusim: error:
// line), the simulated device's properties and attributes, and kernels' attributes and occupancy.
#include "api_state.hpp"

#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cusim {
namespace rt {
namespace api {
std::mutex mu;
cudaError_t sticky_error = cudaSuccess;
std::map<const void *, int> func_max_dynamic_shared;
} // namespace api

namespace {
struct error_entry {
  int code;
  const char *name;
  const char *text;
};
// Names and messages exactly as CUDA 13's cudaGetErrorName/cudaGetErrorString return them.
const error_entry error_table[] = {
#include "error_table.inc"
};

thread_local cudaError_t last_error = cudaSuccess;
int current_device = 0;
unsigned device_flags = 0;
} // namespace

// ---- shared helpers -----------------------------------------------------------------------------

cudaError_t set_error(cudaError_t e) {
  // cudaErrorNotReady is a status, not an error: CUDA does not record it as the last error.
  if (e != cudaSuccess && e != cudaErrorNotReady) last_error = e;
  return e;
}
void set_sticky(cudaError_t e) {
  std::lock_guard<std::mutex> lock(mu);
  if (sticky_error == cudaSuccess) sticky_error = e;
  last_error = e;
}
cudaError_t sticky() {
  std::lock_guard<std::mutex> lock(mu);
  return sticky_error;
}
void report(const char *fmt, ...) {
  char buf[4096];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  print_message("cusim: error: ", buf);
  note_error_task(buf);
}
static std::atomic<int> last_error_task{0};
static std::mutex last_error_mu;
static char last_error_text[4096]; // the latest cusim: error: line, for cusim_last_error_message
void note_error_task(const char *message) {
  const char *p = std::strstr(message, "(task ");
  if (p) last_error_task.store(std::atoi(p + 6));
  std::lock_guard<std::mutex> lock(last_error_mu);
  std::snprintf(last_error_text, sizeof last_error_text, "%s", message);
}
extern "C" int cusim_last_error_task(void) {
  return last_error_task.load();
}
extern "C" const char *cusim_last_error_message(void) {
  std::lock_guard<std::mutex> lock(last_error_mu);
  return last_error_text;
}

size_t max_dynamic_shared() {
  std::lock_guard<std::mutex> lock(mu);
  int m = 48 * 1024;
  for (auto &kv : func_max_dynamic_shared) m = std::max(m, kv.second);
  return (size_t)m;
}

size_t max_dynamic_shared_of(const char *name) {
  std::vector<const void *> kernels = kernels_named(name); // takes the registry's lock
  if (kernels.empty()) return max_dynamic_shared();
  std::lock_guard<std::mutex> lock(mu);
  int m = 48 * 1024;
  for (const void *k : kernels) {
    auto it = func_max_dynamic_shared.find(k);
    if (it != func_max_dynamic_shared.end()) m = std::max(m, it->second);
  }
  return (size_t)m;
}

} // namespace rt
} // namespace cusim

using namespace cusim::rt;
using cusim::rt::set_error;

// ---- the C API ----------------------------------------------------------------------------------

extern "C" {

const char *cudaGetErrorName(cudaError_t error) {
  for (const auto &e : error_table)
    if (e.code == (int)error) return e.name;
  return "unrecognized error code";
}
const char *cudaGetErrorString(cudaError_t error) {
  for (const auto &e : error_table)
    if (e.code == (int)error) return e.text;
  return "unrecognized error code";
}
cudaError_t cudaGetLastError(void) {
  cudaError_t e = last_error;
  last_error = sticky();
  return e;
}
cudaError_t cudaPeekAtLastError(void) {
  return last_error;
}

// ---- device ----

cudaError_t cudaGetDeviceCount(int *count) {
  if (!count) return set_error(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int *device) {
  if (!device) return set_error(cudaErrorInvalidValue);
  *device = current_device;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) {
  if (device != 0) return set_error(cudaErrorInvalidDevice);
  current_device = device;
  return cudaSuccess;
}
cudaError_t cudaInitDevice(int device, unsigned int, unsigned int) {
  return cudaSetDevice(device);
}
// Peer access: one device here, and CUDA answers that a device is not its own peer, so no pair has
// peer access; cudaMemcpyPeer (memory.cpp) and cudaMemcpyPeerAsync copy from device 0 to device 0.
cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice) {
  if (!canAccessPeer) return set_error(cudaErrorInvalidValue);
  if (device != 0 || peerDevice != 0) return set_error(cudaErrorInvalidDevice);
  *canAccessPeer = 0;
  return cudaSuccess;
}
cudaError_t cudaDeviceEnablePeerAccess(int, unsigned int flags) {
  return set_error(flags != 0 ? cudaErrorInvalidValue : cudaErrorInvalidDevice);
}
cudaError_t cudaDeviceDisablePeerAccess(int) {
  return set_error(cudaErrorInvalidDevice);
}
cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice,
                                size_t count, cudaStream_t stream) {
  if (dstDevice != 0 || srcDevice != 0) return set_error(cudaErrorInvalidDevice);
  return cudaMemcpyAsync(dst, src, count, cudaMemcpyDeviceToDevice, stream);
}
cudaError_t cudaSetDeviceFlags(unsigned int flags) {
  device_flags = flags;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceFlags(unsigned int *flags) {
  if (!flags) return set_error(cudaErrorInvalidValue);
  *flags = device_flags;
  return cudaSuccess;
}
cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *) {
  if (!device) return set_error(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int device) {
  if (!p) return set_error(cudaErrorInvalidValue);
  if (device != 0) return set_error(cudaErrorInvalidDevice);
  std::memset(p, 0, sizeof *p);
  std::snprintf(p->name, sizeof p->name, "CPU simulator");
  int workers = worker_count();
  p->totalGlobalMem = physical_memory();
  p->sharedMemPerBlock = 48 * 1024;
  p->regsPerBlock = 65536;
  p->warpSize = 32;
  p->memPitch = (size_t)2147483647;
  p->maxThreadsPerBlock = 1024;
  p->maxThreadsDim[0] = 1024;
  p->maxThreadsDim[1] = 1024;
  p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = 2147483647;
  p->maxGridSize[1] = 65535;
  p->maxGridSize[2] = 65535;
  p->totalConstMem = 65536;
  p->major = 9;
  p->minor = 0;
  p->textureAlignment = 512;
  p->texturePitchAlignment = 32;
  p->multiProcessorCount = workers;
  p->integrated = 1;
  p->canMapHostMemory = 1;
  p->concurrentKernels = 1;
  p->asyncEngineCount = 1;
  p->unifiedAddressing = 1;
  p->memoryBusWidth = 64;
  p->l2CacheSize = 4 * 1024 * 1024;
  p->persistingL2CacheMaxSize = 3 * 1024 * 1024;    // three quarters of L2 (an A100: 30 of 40 MB)
  p->accessPolicyMaxWindowSize = 128 * 1024 * 1024; // a made-up device: a round figure
  p->maxThreadsPerMultiProcessor = 2048;
  p->streamPrioritiesSupported = 1;
  p->globalL1CacheSupported = 1;
  p->localL1CacheSupported = 1;
  p->sharedMemPerMultiprocessor = 228 * 1024;
  p->regsPerMultiprocessor = 65536;
  p->managedMemory = 1;
  p->hostNativeAtomicSupported = 1;
  p->pageableMemoryAccess = 0;
  p->concurrentManagedAccess = 1;
  p->canUseHostPointerForRegisteredMem = 1;
  p->cooperativeLaunch = 1;
  p->sharedMemPerBlockOptin = 227 * 1024;
  p->directManagedMemAccessFromHost = 1;
  p->maxBlocksPerMultiProcessor = 32;
  p->reservedSharedMemPerBlock = 1024; // per block, counted by the occupancy API
  p->hostRegisterSupported = 1;
  p->memoryPoolsSupported = 1;
  p->memoryPoolSupportedHandleTypes = 0;
  p->clusterLaunch = 0;
  p->deviceNumaId = -1;
  p->hostNumaId = -1;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device) {
  if (!value) return set_error(cudaErrorInvalidValue);
  if (device != 0) return set_error(cudaErrorInvalidDevice);
  struct cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  int v = 0;
  switch (attr) {
  case cudaDevAttrMaxThreadsPerBlock:
    v = p.maxThreadsPerBlock;
    break;
  case cudaDevAttrMaxBlockDimX:
    v = p.maxThreadsDim[0];
    break;
  case cudaDevAttrMaxBlockDimY:
    v = p.maxThreadsDim[1];
    break;
  case cudaDevAttrMaxBlockDimZ:
    v = p.maxThreadsDim[2];
    break;
  case cudaDevAttrMaxGridDimX:
    v = p.maxGridSize[0];
    break;
  case cudaDevAttrMaxGridDimY:
    v = p.maxGridSize[1];
    break;
  case cudaDevAttrMaxGridDimZ:
    v = p.maxGridSize[2];
    break;
  case cudaDevAttrMaxSharedMemoryPerBlock:
    v = (int)p.sharedMemPerBlock;
    break;
  case cudaDevAttrTotalConstantMemory:
    v = (int)p.totalConstMem;
    break;
  case cudaDevAttrWarpSize:
    v = 32;
    break;
  case cudaDevAttrMaxPitch:
    v = (int)p.memPitch;
    break;
  case cudaDevAttrMaxRegistersPerBlock:
    v = p.regsPerBlock;
    break;
  case cudaDevAttrClockRate:
    v = 0;
    break; // no meaningful clock: the simulator
  case cudaDevAttrMemoryClockRate:
    v = 0;
    break; // 0: there is no peak bandwidth to compare with
  case cudaDevAttrGlobalMemoryBusWidth:
    v = p.memoryBusWidth;
    break;
  case cudaDevAttrMultiProcessorCount:
    v = p.multiProcessorCount;
    break;
  case cudaDevAttrIntegrated:
    v = p.integrated;
    break;
  case cudaDevAttrCanMapHostMemory:
    v = 1;
    break;
  case cudaDevAttrComputeMode:
    v = cudaComputeModeDefault;
    break;
  case cudaDevAttrConcurrentKernels:
    v = 1;
    break;
  case cudaDevAttrL2CacheSize:
    v = p.l2CacheSize;
    break;
  case cudaDevAttrMaxPersistingL2CacheSize:
    v = p.persistingL2CacheMaxSize;
    break;
  case cudaDevAttrMaxAccessPolicyWindowSize:
    v = p.accessPolicyMaxWindowSize;
    break;
  case cudaDevAttrMaxThreadsPerMultiProcessor:
    v = p.maxThreadsPerMultiProcessor;
    break;
  case cudaDevAttrAsyncEngineCount:
    v = p.asyncEngineCount;
    break;
  case cudaDevAttrUnifiedAddressing:
    v = 1;
    break;
  case cudaDevAttrComputeCapabilityMajor:
    v = p.major;
    break;
  case cudaDevAttrComputeCapabilityMinor:
    v = p.minor;
    break;
  case cudaDevAttrStreamPrioritiesSupported:
    v = 1;
    break;
  case cudaDevAttrGlobalL1CacheSupported:
    v = 1;
    break;
  case cudaDevAttrLocalL1CacheSupported:
    v = 1;
    break;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
    v = (int)p.sharedMemPerMultiprocessor;
    break;
  case cudaDevAttrMaxRegistersPerMultiprocessor:
    v = p.regsPerMultiprocessor;
    break;
  case cudaDevAttrManagedMemory:
    v = 1;
    break;
  case cudaDevAttrHostNativeAtomicSupported:
    v = 1;
    break;
  case cudaDevAttrConcurrentManagedAccess:
    v = 1;
    break;
  case cudaDevAttrCooperativeLaunch:
    v = 1; // cudaLaunchCooperativeKernel and grid.sync() (cooperative.cpp)
    break;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin:
    v = (int)p.sharedMemPerBlockOptin;
    break;
  case cudaDevAttrHostRegisterSupported:
    v = 1;
    break;
  case cudaDevAttrDirectManagedMemAccessFromHost:
    v = 1;
    break;
  case cudaDevAttrMaxBlocksPerMultiprocessor:
    v = p.maxBlocksPerMultiProcessor;
    break;
  case cudaDevAttrReservedSharedMemoryPerBlock:
    v = (int)p.reservedSharedMemPerBlock;
    break;
  case cudaDevAttrMemoryPoolsSupported:
    v = 1;
    break;
  case cudaDevAttrCanUseHostPointerForRegisteredMem:
    v = 1;
    break;
  default:
    v = 0;
    break;
  }
  *value = v;
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void) {
  cudaError_t refused;
  if (captures_active.load() != 0 &&
      capture_refuses_sync("cudaDeviceSynchronize", nullptr, true, &refused))
    return set_error(refused);
  sync_all();
  return set_error(sticky());
}
cudaError_t cudaDeviceReset(void) {
  run_queue();
  std::lock_guard<std::mutex> lock(mu);
  for (auto &kv : live) {
    if (kv.second.kind == mem_kind::device || kv.second.kind == mem_kind::managed ||
        kv.second.kind == mem_kind::pinned)
      raw_free((void *)kv.first);
  }
  live.clear();
  freed.clear();
  freed_order.clear();
  sticky_error = cudaSuccess;
  last_error = cudaSuccess;
  return cudaSuccess;
}
cudaError_t cudaDeviceSetLimit(enum cudaLimit, size_t) {
  return cudaSuccess;
}
cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit) {
  if (!value) return set_error(cudaErrorInvalidValue);
  switch (limit) {
  case cudaLimitStackSize:
    *value = 1024;
    break;
  case cudaLimitPrintfFifoSize:
    *value = 1 << 20;
    break;
  case cudaLimitMallocHeapSize:
    *value = 8 << 20;
    break;
  default:
    *value = 0;
    break;
  }
  return cudaSuccess;
}
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache) {
  return cudaSuccess;
}
cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority) {
  if (leastPriority) *leastPriority = 0;
  if (greatestPriority) *greatestPriority = -5;
  return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int *v) {
  if (!v) return set_error(cudaErrorInvalidValue);
  *v = CUDART_VERSION;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int *v) {
  if (!v) return set_error(cudaErrorInvalidValue);
  *v = CUDART_VERSION;
  return cudaSuccess;
}
cudaError_t cudaProfilerStart(void) {
  return cudaSuccess;
}
cudaError_t cudaProfilerStop(void) {
  return cudaSuccess;
}

// ---- kernels ----

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func) {
  if (!attr || !func) return set_error(cudaErrorInvalidDeviceFunction);
  std::memset(attr, 0, sizeof *attr);
  attr->maxThreadsPerBlock = ::cusim::kernel_max_threads(func); // __launch_bounds__, else 1024
  attr->numRegs = 32;
  attr->ptxVersion = 90;
  attr->binaryVersion = 90;
  std::lock_guard<std::mutex> lock(mu);
  auto it = func_max_dynamic_shared.find(func);
  attr->maxDynamicSharedSizeBytes = it != func_max_dynamic_shared.end() ? it->second : 48 * 1024;
  attr->preferredShmemCarveout = -1;
  return cudaSuccess;
}
cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value) {
  if (!func) return set_error(cudaErrorInvalidDeviceFunction);
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
    if (value < 0 || value > 227 * 1024) return set_error(cudaErrorInvalidValue);
    std::lock_guard<std::mutex> lock(mu);
    func_max_dynamic_shared[func] = value;
  }
  return cudaSuccess;
}
cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache) {
  if (!func) return set_error(cudaErrorInvalidDeviceFunction);
  return cudaSuccess;
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func,
                                                                   int blockSize,
                                                                   size_t dynamicSMemSize,
                                                                   unsigned int) {
  if (!numBlocks || blockSize <= 0) return set_error(cudaErrorInvalidValue);
  // A block above 1024 threads: no block fits (cudaSuccess, 0 blocks, as an H200 answers). The
  // kernel's __launch_bounds__ maximum is NOT applied: an H200 counted 4 blocks of 512 threads
  // for a kernel bounded to 256, a block its launch refuses (cudaOccupancyMaxPotentialBlockSize
  // honours the bound).
  (void)func;
  if (blockSize > 1024) {
    *numBlocks = 0;
    return cudaSuccess;
  }
  // The simulated multiprocessor (an H100's): 2048 threads, 32 blocks, 228 KiB of shared memory;
  // warps are allocated whole, shared memory in units of 128 bytes plus 1 KiB reserved per block
  // (as the profiler counts it, profile.cpp). Registers are not modelled: a GPU also limits by
  // them.
  int warps = (blockSize + 31) / 32;
  int by_threads = 64 / warps;
  int by_blocks = 32;
  int by_shared =
      dynamicSMemSize ? (int)((228 * 1024) / ((dynamicSMemSize + 127) / 128 * 128 + 1024)) : 32;
  *numBlocks = std::max(0, std::min(by_threads, std::min(by_blocks, by_shared)));
  return cudaSuccess;
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                          int blockSize, size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize,
                                                                dynamicSMemSize, 0);
}

} // extern "C"
