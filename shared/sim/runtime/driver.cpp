// The driver API subset (cuda.h) for the CPU simulator: what a program needs to load what NVRTC
// compiled and launch it. Memory, streams and launches go through the runtime API's machinery
// (the same allocations, streams, checks and scheduler); modules are the shared objects NVRTC
// made (nvrtc.cpp), loaded from memory with dlopen. See docs/architecture.md, "NVRTC and the
// driver API".
#include "internal.hpp"
#include "nvrtc_module.hpp"

#include <cooperative_groups.h>
#include <cuda.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <mutex>
#include <set>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

struct CUctx_st {
  bool primary = false;
};
struct CUmod_st {
  void *handle = nullptr;
  int fd = -1; // the memfd it was loaded from, open while it is loaded (see load)
};
struct CUfunc_st {
  const void *address = nullptr;
  CUmodule module = nullptr;
  std::string name;
};

namespace cusim {
const char *registered_kernel_name(const void *func); // launch_kernel.cpp

namespace detail {
// What a module's kernels call in the runtime. Taking their addresses here links the objects
// that define them into every program that uses the driver API, so the program exports them
// (--export-dynamic) even when it has no kernel of its own.
extern void *const driver_api_keeps[];
void *const driver_api_keeps[] = {(void *)&launch_begin,
                                  (void *)&launch_submit,
                                  (void *)&check_pointer_arg,
                                  (void *)&block_end,
                                  (void *)&run_ready,
                                  (void *)&register_shared_site,
                                  (void *)&shared_site_alloc,
                                  (void *)&::cusim::dev::syncthreads,
                                  (void *)&::cusim::dev::activemask,
                                  (void *)&register_kernel,
                                  (void *)&::cusim::dev::grid_sync,
                                  (void *)&::cusim_tls};
} // namespace detail

namespace driver {
namespace {
std::atomic<bool> initialized{false};
thread_local CUcontext current = nullptr;
std::mutex mu;
CUctx_st primary_context{true};
int primary_retains = 0;
std::set<CUcontext> contexts;   // created with cuCtxCreate, not yet destroyed
std::set<CUmodule> modules;     // loaded, not yet unloaded
std::set<CUfunction> functions; // of loaded modules

CUresult from_runtime(cudaError_t e) {
  switch (e) {
  case cudaSuccess:
    return CUDA_SUCCESS;
  case cudaErrorInvalidValue:
    return CUDA_ERROR_INVALID_VALUE;
  case cudaErrorMemoryAllocation:
    return CUDA_ERROR_OUT_OF_MEMORY;
  case cudaErrorInitializationError:
    return CUDA_ERROR_NOT_INITIALIZED;
  case cudaErrorInvalidConfiguration:
    return CUDA_ERROR_INVALID_VALUE;
  case cudaErrorInvalidDeviceFunction:
    return CUDA_ERROR_INVALID_HANDLE;
  case cudaErrorSynchronizationError:
    return CUDA_ERROR_LAUNCH_FAILED;
  default:
    // The runtime's codes from 100 on are the driver's (cudaErrorIllegalAddress = 700 =
    // CUDA_ERROR_ILLEGAL_ADDRESS, ...).
    return (int)e >= 100 ? (CUresult)e : CUDA_ERROR_UNKNOWN;
  }
}

CUresult need_init() {
  return initialized.load() ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
}

CUresult need_context(const char *api) {
  if (!initialized.load()) return CUDA_ERROR_NOT_INITIALIZED;
  if (current == nullptr) {
    rt::report("%s: no current context: call cuCtxCreate, or cuDevicePrimaryCtxRetain and "
               "cuCtxSetCurrent, first (the simulator is stricter than a GPU here: a runtime "
               "API call does not make the primary context current)",
               api);
    return CUDA_ERROR_INVALID_CONTEXT;
  }
  return CUDA_SUCCESS;
}

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// The shared object in a module's text (nvrtc_module.hpp); false when it is damaged.
bool decode_module(const char *text, std::string *abi, std::string *target, std::string *bytes) {
  size_t header = std::strlen(nvrtc::module_header);
  char *end = nullptr;
  unsigned long long size = std::strtoull(text + header, &end, 10);
  if (end == text + header || *end != '\n') return false;
  const char *p = end + 1;
  if (std::strncmp(p, "// ", 3) != 0) return false;
  const char *abi_end = std::strchr(p, '\n');
  if (!abi_end) return false;
  abi->assign(p + 3, abi_end);
  p = std::strchr(abi_end + 1, '\n'); // the program's line, with the target
  if (p) target->assign(abi_end + 1, p);
  if (!p) return false;
  ++p;
  uint32_t acc = 0;
  int bits = 0;
  for (; *p; ++p) {
    if (*p == '\n' || *p == '=') continue;
    int v = base64_value(*p);
    if (v < 0) return false;
    acc = (acc << 6) | (uint32_t)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes->push_back((char)((acc >> bits) & 0xff));
    }
  }
  return bytes->size() == size;
}

// Where a GPU of the simulated device's compute capability would refuse the module, the error it
// gives and a line saying why; CUDA_SUCCESS where it would load. The program's line starts with
// `// .target sm_NN` (PTX, for the driver's JIT) or `// cubin sm_NN` (nvrtc.cpp). PTX compiles
// for its own architecture or a newer one: a newer .target fails in the JIT
// (CUDA_ERROR_INVALID_PTX). An `a` target is for one architecture only, an `f` one for its
// family (same major version, same or newer minor). A CUBIN runs only on its own major version,
// same or newer minor (CUDA_ERROR_NO_BINARY_FOR_GPU). A module without the line is older than
// this rule and loads.
CUresult check_target(const std::string &line, const char *api) {
  bool cubin = line.compare(0, 12, "// cubin sm_") == 0;
  if (!cubin && line.compare(0, 14, "// .target sm_") != 0) return CUDA_SUCCESS;
  const char *p = line.c_str() + (cubin ? 12 : 14);
  char *end = nullptr;
  long target = std::strtol(p, &end, 10);
  char suffix = (*end == 'a' || *end == 'f') ? *end : '\0';
  int major = 0, minor = 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
  cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0);
  long device = major * 10 + minor;
  bool same_family = target / 10 == major && target % 10 <= minor;
  bool loads = suffix == 'a'   ? target == device
               : suffix == 'f' ? same_family
               : cubin         ? same_family
                               : target <= device;
  if (loads) return CUDA_SUCCESS;
  if (cubin) {
    rt::report("%s: this CUBIN is for sm_%ld%s and the device is sm_%ld: a CUBIN runs only on "
               "its own major architecture (compile PTX, --gpu-architecture=compute_%ld)",
               api, target, suffix ? std::string(1, suffix).c_str() : "", device, device);
    return CUDA_ERROR_NO_BINARY_FOR_GPU;
  }
  rt::report("%s: the PTX's .target is sm_%ld%s, which this device (sm_%ld) cannot run: the JIT "
             "refuses it, as on a GPU (compile for the device's own compute_%ld)",
             api, target, suffix ? std::string(1, suffix).c_str() : "", device, device);
  return CUDA_ERROR_INVALID_PTX;
}

CUresult load(CUmodule *module, const void *image, const char *api) {
  if (CUresult r = need_context(api)) return r;
  if (module == nullptr || image == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const char *text = static_cast<const char *>(image);
  if (std::strncmp(text, nvrtc::module_header, std::strlen(nvrtc::module_header)) != 0) {
    const unsigned char *b = static_cast<const unsigned char *>(image);
    if (b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F') {
      rt::report("%s: this image is a GPU binary (an ELF cubin or fatbin); the simulator runs "
                 "only what its own NVRTC compiled",
                 api);
      return CUDA_ERROR_INVALID_IMAGE;
    }
    rt::report("%s: this image is not a module of the simulator's NVRTC (real PTX cannot run "
               "on the CPU simulator; compile the CUDA C source with nvrtcCompileProgram)",
               api);
    return CUDA_ERROR_INVALID_PTX;
  }
  std::string abi, target, bytes;
  if (!decode_module(text, &abi, &target, &bytes)) {
    rt::report("%s: the module's text is damaged (truncated or changed)", api);
    return CUDA_ERROR_INVALID_IMAGE;
  }
  if (abi != nvrtc::module_abi()) {
    rt::report("%s: the module was compiled by another build of the simulator (%s, this is "
               "%s); compile it again",
               api, abi.c_str(), nvrtc::module_abi());
    return CUDA_ERROR_UNSUPPORTED_PTX_VERSION;
  }
  if (CUresult r = check_target(target, api)) return r;
  int fd = memfd_create("cusim-module", MFD_CLOEXEC);
  if (fd < 0) {
    rt::report("%s: memfd_create failed", api);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t w = write(fd, bytes.data() + done, bytes.size() - done);
    if (w <= 0) {
      close(fd);
      rt::report("%s: cannot write the module into memory", api);
      return CUDA_ERROR_OUT_OF_MEMORY;
    }
    done += (size_t)w;
  }
  char path[64];
  std::snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  // dlopen knows a loaded object by its path: the memfd stays open while the module is loaded, so
  // no two live modules share a /proc/self/fd/N name (a reused name would return the old one).
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    close(fd);
    rt::report("%s: the module does not load: %s (a program that loads modules must be linked "
               "with --export-dynamic; the simulator's builds do that)",
               api, dlerror());
    return CUDA_ERROR_INVALID_IMAGE;
  }
  CUmodule m = new CUmod_st;
  m->handle = handle;
  m->fd = fd;
  std::lock_guard<std::mutex> lock(mu);
  modules.insert(m);
  cusim::rt::resource_created(cusim::rt::resource::module, m);
  *module = m;
  return CUDA_SUCCESS;
}

bool live_function(CUfunction f) {
  std::lock_guard<std::mutex> lock(mu);
  return functions.count(f) != 0;
}

CUdeviceptr as_device(void *p) {
  return (CUdeviceptr)(uintptr_t)p;
}
void *as_pointer(CUdeviceptr p) {
  return (void *)(uintptr_t)p;
}

} // namespace
} // namespace driver
} // namespace cusim

using namespace cusim::driver;
using cusim::rt::report;

extern "C" {

CUresult cuGetErrorName(CUresult error, const char **pStr) {
  if (pStr == nullptr) return CUDA_ERROR_INVALID_VALUE;
  switch (error) {
#define CUSIM_NAME(e)                                                                              \
  case e:                                                                                          \
    *pStr = #e;                                                                                    \
    return CUDA_SUCCESS;
    CUSIM_NAME(CUDA_SUCCESS)
    CUSIM_NAME(CUDA_ERROR_INVALID_VALUE)
    CUSIM_NAME(CUDA_ERROR_OUT_OF_MEMORY)
    CUSIM_NAME(CUDA_ERROR_NOT_INITIALIZED)
    CUSIM_NAME(CUDA_ERROR_DEINITIALIZED)
    CUSIM_NAME(CUDA_ERROR_NO_DEVICE)
    CUSIM_NAME(CUDA_ERROR_INVALID_DEVICE)
    CUSIM_NAME(CUDA_ERROR_INVALID_IMAGE)
    CUSIM_NAME(CUDA_ERROR_INVALID_CONTEXT)
    CUSIM_NAME(CUDA_ERROR_INVALID_PTX)
    CUSIM_NAME(CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
    CUSIM_NAME(CUDA_ERROR_NO_BINARY_FOR_GPU)
    CUSIM_NAME(CUDA_ERROR_INVALID_SOURCE)
    CUSIM_NAME(CUDA_ERROR_FILE_NOT_FOUND)
    CUSIM_NAME(CUDA_ERROR_INVALID_HANDLE)
    CUSIM_NAME(CUDA_ERROR_ILLEGAL_STATE)
    CUSIM_NAME(CUDA_ERROR_NOT_FOUND)
    CUSIM_NAME(CUDA_ERROR_NOT_READY)
    CUSIM_NAME(CUDA_ERROR_ILLEGAL_ADDRESS)
    CUSIM_NAME(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)
    CUSIM_NAME(CUDA_ERROR_LAUNCH_TIMEOUT)
    CUSIM_NAME(CUDA_ERROR_ASSERT)
    CUSIM_NAME(CUDA_ERROR_LAUNCH_FAILED)
    CUSIM_NAME(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE)
    CUSIM_NAME(CUDA_ERROR_NOT_SUPPORTED)
    CUSIM_NAME(CUDA_ERROR_UNKNOWN)
#undef CUSIM_NAME
  }
  *pStr = nullptr;
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult error, const char **pStr) {
  if (pStr == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const char *s = nullptr;
  switch (error) {
  case CUDA_SUCCESS:
    s = "no error";
    break;
  case CUDA_ERROR_INVALID_VALUE:
    s = "invalid argument";
    break;
  case CUDA_ERROR_OUT_OF_MEMORY:
    s = "out of memory";
    break;
  case CUDA_ERROR_NOT_INITIALIZED:
    s = "initialization error";
    break;
  case CUDA_ERROR_DEINITIALIZED:
    s = "driver shutting down";
    break;
  case CUDA_ERROR_NO_DEVICE:
    s = "no CUDA-capable device is detected";
    break;
  case CUDA_ERROR_INVALID_DEVICE:
    s = "invalid device ordinal";
    break;
  case CUDA_ERROR_INVALID_IMAGE:
    s = "device kernel image is invalid";
    break;
  case CUDA_ERROR_INVALID_CONTEXT:
    s = "invalid device context";
    break;
  case CUDA_ERROR_INVALID_PTX:
    s = "a PTX JIT compilation failed";
    break;
  case CUDA_ERROR_NO_BINARY_FOR_GPU:
    s = "no kernel image is available for execution on the device";
    break;
  case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
    s = "the provided PTX was compiled with an unsupported toolchain.";
    break;
  case CUDA_ERROR_INVALID_SOURCE:
    s = "device kernel image is invalid";
    break;
  case CUDA_ERROR_FILE_NOT_FOUND:
    s = "file not found";
    break;
  case CUDA_ERROR_INVALID_HANDLE:
    s = "invalid resource handle";
    break;
  case CUDA_ERROR_ILLEGAL_STATE:
    s = "the operation is not permitted in the current state";
    break;
  case CUDA_ERROR_NOT_FOUND:
    s = "named symbol not found";
    break;
  case CUDA_ERROR_NOT_READY:
    s = "device not ready";
    break;
  case CUDA_ERROR_ILLEGAL_ADDRESS:
    s = "an illegal memory access was encountered";
    break;
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    s = "too many resources requested for launch";
    break;
  case CUDA_ERROR_LAUNCH_TIMEOUT:
    s = "the launch timed out and was terminated";
    break;
  case CUDA_ERROR_ASSERT:
    s = "device-side assert triggered";
    break;
  case CUDA_ERROR_LAUNCH_FAILED:
    s = "unspecified launch failure";
    break;
  case CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE:
    s = "too many blocks in cooperative launch";
    break;
  case CUDA_ERROR_NOT_SUPPORTED:
    s = "operation not supported";
    break;
  case CUDA_ERROR_UNKNOWN:
    s = "unknown error";
    break;
  }
  *pStr = s;
  return s ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuInit(unsigned int Flags) {
  if (Flags != 0) return CUDA_ERROR_INVALID_VALUE;
  initialized = true;
  return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int *driverVersion) {
  if (driverVersion == nullptr) return CUDA_ERROR_INVALID_VALUE;
  return from_runtime(cudaDriverGetVersion(driverVersion));
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  if (CUresult r = need_init()) return r;
  if (device == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
  *device = 0;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count) {
  if (CUresult r = need_init()) return r;
  if (count == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *count = 1;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev) {
  if (CUresult r = need_init()) return r;
  if (name == nullptr || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
  cudaDeviceProp prop;
  if (CUresult r = from_runtime(cudaGetDeviceProperties(&prop, 0))) return r;
  std::snprintf(name, (size_t)len, "%s", prop.name);
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev) {
  if (CUresult r = need_init()) return r;
  if (pi == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
  return from_runtime(cudaDeviceGetAttribute(pi, (cudaDeviceAttr)attrib, 0));
}

CUresult cuCtxCreate(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags,
                     CUdevice dev) {
  (void)ctxCreateParams;
  (void)flags;
  if (CUresult r = need_init()) return r;
  if (pctx == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
  CUcontext c = new CUctx_st;
  {
    std::lock_guard<std::mutex> lock(mu);
    contexts.insert(c);
  }
  current = c;
  *pctx = c;
  return CUDA_SUCCESS;
}

CUresult cuCtxDestroy(CUcontext ctx) {
  if (CUresult r = need_init()) return r;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (!contexts.erase(ctx)) return CUDA_ERROR_INVALID_CONTEXT;
  }
  cudaDeviceSynchronize();
  if (current == ctx) current = nullptr;
  delete ctx;
  return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx) {
  if (CUresult r = need_init()) return r;
  if (ctx != nullptr && ctx != &primary_context) {
    std::lock_guard<std::mutex> lock(mu);
    if (!contexts.count(ctx)) return CUDA_ERROR_INVALID_CONTEXT;
  }
  current = ctx;
  return CUDA_SUCCESS;
}

CUresult cuCtxGetCurrent(CUcontext *pctx) {
  if (CUresult r = need_init()) return r;
  if (pctx == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *pctx = current;
  return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize(void) {
  if (CUresult r = need_context("cuCtxSynchronize")) return r;
  return from_runtime(cudaDeviceSynchronize());
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev) {
  if (CUresult r = need_init()) return r;
  if (pctx == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
  std::lock_guard<std::mutex> lock(mu);
  ++primary_retains;
  *pctx = &primary_context;
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease(CUdevice dev) {
  if (CUresult r = need_init()) return r;
  if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
  std::lock_guard<std::mutex> lock(mu);
  if (primary_retains == 0) return CUDA_ERROR_INVALID_CONTEXT;
  --primary_retains;
  return CUDA_SUCCESS;
}

CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  cusim::rt::creation_site here(__builtin_return_address(0));
  return load(module, image, "cuModuleLoadData");
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions,
                            CUjit_option *options, void **optionValues) {
  cusim::rt::creation_site here(__builtin_return_address(0));
  if (numOptions > 0 && (options == nullptr || optionValues == nullptr))
    return CUDA_ERROR_INVALID_VALUE;
  return load(module, image, "cuModuleLoadDataEx"); // the JIT's options mean nothing here
}

CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name) {
  if (CUresult r = need_context("cuModuleGetFunction")) return r;
  if (hfunc == nullptr || name == nullptr) return CUDA_ERROR_INVALID_VALUE;
  void *handle;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (!modules.count(hmod)) return CUDA_ERROR_INVALID_HANDLE;
    handle = hmod->handle;
  }
  void *address = dlsym(handle, name);
  if (address == nullptr || cusim::registered_kernel_name(address) == nullptr) {
    report("cuModuleGetFunction: the module has no __global__ function named '%s' (a C++ "
           "kernel's name is mangled: declare it extern \"C\", or ask NVRTC for its lowered "
           "name with nvrtcAddNameExpression and nvrtcGetLoweredName)",
           name);
    return CUDA_ERROR_NOT_FOUND;
  }
  CUfunction f = new CUfunc_st;
  f->address = address;
  f->module = hmod;
  f->name = name;
  std::lock_guard<std::mutex> lock(mu);
  functions.insert(f);
  *hfunc = f;
  return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule hmod) {
  if (CUresult r = need_context("cuModuleUnload")) return r;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (!modules.count(hmod)) return CUDA_ERROR_INVALID_HANDLE;
  }
  // Launches of its kernels may still be queued (streams run lazily): run them before the code
  // goes away.
  cusim::rt::run_queue();
  std::lock_guard<std::mutex> lock(mu);
  for (auto it = functions.begin(); it != functions.end();) {
    if ((*it)->module == hmod) {
      delete *it;
      it = functions.erase(it);
    } else {
      ++it;
    }
  }
  modules.erase(hmod);
  cusim::rt::resource_released(hmod);
  cusim::rt::unregister_kernels_of(hmod->handle);
  dlclose(hmod->handle);
  close(hmod->fd);
  delete hmod;
  return CUDA_SUCCESS;
}

CUresult cusim_cuLaunchKernel_at(const char *file, int line, CUfunction f, unsigned int gridDimX,
                                 unsigned int gridDimY, unsigned int gridDimZ,
                                 unsigned int blockDimX, unsigned int blockDimY,
                                 unsigned int blockDimZ, unsigned int sharedMemBytes,
                                 CUstream hStream, void **kernelParams, void **extra) {
  if (CUresult r = need_context("cuLaunchKernel")) return r;
  if (!live_function(f)) {
    cusim::rt::report(
        "%s:%d: cuLaunchKernel: the function is not one of a loaded module (was its module "
        "unloaded?)",
        cusim::rt::base_name(file), line);
    return CUDA_ERROR_INVALID_HANDLE;
  }
  if (extra != nullptr) {
    cusim::rt::report(
        "%s:%d: cuLaunchKernel: the 'extra' parameter buffer is not simulated; pass the "
        "arguments in kernelParams",
        cusim::rt::base_name(file), line);
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  cudaError_t e = cusim::launch_registered(
      file, line, f->address, dim3(gridDimX, gridDimY, gridDimZ),
      dim3(blockDimX, blockDimY, blockDimZ), kernelParams, sharedMemBytes, hStream);
  if (e != cudaSuccess) cudaGetLastError(); // the driver API has no last error to leave it in
  return from_runtime(e);
}

#undef cuLaunchKernel
CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                        unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                        unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                        void **kernelParams, void **extra) {
  return cusim_cuLaunchKernel_at("(unknown)", 0, f, gridDimX, gridDimY, gridDimZ, blockDimX,
                                 blockDimY, blockDimZ, sharedMemBytes, hStream, kernelParams,
                                 extra);
}

CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytesize) {
  cusim::rt::creation_site here(__builtin_return_address(0));
  if (CUresult r = need_context("cuMemAlloc")) return r;
  if (dptr == nullptr || bytesize == 0) return CUDA_ERROR_INVALID_VALUE;
  void *p = nullptr;
  CUresult r = from_runtime(cudaMalloc(&p, bytesize));
  if (r == CUDA_SUCCESS)
    *dptr = as_device(p);
  else
    cudaGetLastError();
  return r;
}

CUresult cuMemFree(CUdeviceptr dptr) {
  if (CUresult r = need_context("cuMemFree")) return r;
  CUresult r = from_runtime(cudaFree(as_pointer(dptr)));
  if (r != CUDA_SUCCESS) cudaGetLastError();
  return r;
}

#define CUSIM_DRIVER_CALL(api, call)                                                               \
  do {                                                                                             \
    if (CUresult r_ = need_context(api)) return r_;                                                \
    CUresult r_ = from_runtime(call);                                                              \
    if (r_ != CUDA_SUCCESS) cudaGetLastError();                                                    \
    return r_;                                                                                     \
  } while (0)

CUresult cuMemcpyHtoD(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount) {
  CUSIM_DRIVER_CALL("cuMemcpyHtoD",
                    cudaMemcpy(as_pointer(dstDevice), srcHost, ByteCount, cudaMemcpyHostToDevice));
}

CUresult cuMemcpyDtoH(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount) {
  CUSIM_DRIVER_CALL("cuMemcpyDtoH",
                    cudaMemcpy(dstHost, as_pointer(srcDevice), ByteCount, cudaMemcpyDeviceToHost));
}

CUresult cuMemcpyDtoD(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount) {
  CUSIM_DRIVER_CALL("cuMemcpyDtoD", cudaMemcpy(as_pointer(dstDevice), as_pointer(srcDevice),
                                               ByteCount, cudaMemcpyDeviceToDevice));
}

CUresult cuMemcpyHtoDAsync(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount,
                           CUstream hStream) {
  CUSIM_DRIVER_CALL("cuMemcpyHtoDAsync", cudaMemcpyAsync(as_pointer(dstDevice), srcHost, ByteCount,
                                                         cudaMemcpyHostToDevice, hStream));
}

CUresult cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount,
                           CUstream hStream) {
  CUSIM_DRIVER_CALL("cuMemcpyDtoHAsync", cudaMemcpyAsync(dstHost, as_pointer(srcDevice), ByteCount,
                                                         cudaMemcpyDeviceToHost, hStream));
}

CUresult cuMemsetD32(CUdeviceptr dstDevice, unsigned int ui, size_t N) {
  if (CUresult r = need_context("cuMemsetD32")) return r;
  if (ui == 0 || ui == 0x01010101u * (ui & 0xff)) {
    CUresult r = from_runtime(cudaMemset(as_pointer(dstDevice), (int)(ui & 0xff), N * 4));
    if (r != CUDA_SUCCESS) cudaGetLastError();
    return r;
  }
  // Another pattern: written from the host after the device's earlier work is done.
  cusim::rt::lookup l = cusim::rt::find(as_pointer(dstDevice));
  if (!l.live || dstDevice + N * 4 > l.base + l.size) {
    report("cuMemsetD32: %zu words at %p are not inside one live device allocation", N,
           as_pointer(dstDevice));
    return CUDA_ERROR_INVALID_VALUE;
  }
  cudaDeviceSynchronize();
  unsigned int *p = static_cast<unsigned int *>(as_pointer(dstDevice));
  for (size_t i = 0; i < N; ++i) p[i] = ui;
  return CUDA_SUCCESS;
}

CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags) {
  cusim::rt::creation_site here(__builtin_return_address(0));
  CUSIM_DRIVER_CALL("cuStreamCreate", cudaStreamCreateWithFlags(phStream, Flags));
}

CUresult cuStreamDestroy(CUstream hStream) {
  CUSIM_DRIVER_CALL("cuStreamDestroy", cudaStreamDestroy(hStream));
}

CUresult cuStreamSynchronize(CUstream hStream) {
  CUSIM_DRIVER_CALL("cuStreamSynchronize", cudaStreamSynchronize(hStream));
}

} // extern "C"
