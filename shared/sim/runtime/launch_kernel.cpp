// cudaLaunchKernel: the registry of __global__ functions (filled by what the rewriter writes
// after each kernel definition) and the launch through it.
#include "cuda_runtime.h"
#include "internal.hpp"

#include <cstdio>
#include <mutex>
#include <unordered_map>

namespace cusim {
namespace {
struct registered_kernel {
  const char *name;
  kernel_invoker invoker;
};
std::mutex &registry_mutex() {
  static std::mutex m;
  return m;
}
std::unordered_map<const void *, registered_kernel> &registry() {
  static std::unordered_map<const void *, registered_kernel> r;
  return r;
}
} // namespace

void register_kernel(const void *func, const char *name, kernel_invoker invoker) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry()[func] = registered_kernel{name, invoker};
}

cudaError_t launch_registered(const char *file, int line, const void *func, dim3 grid, dim3 block,
                              void **args, size_t shared, cudaStream_t stream) {
  registered_kernel kernel{nullptr, nullptr};
  {
    std::lock_guard<std::mutex> lock(registry_mutex());
    auto found = registry().find(func);
    if (found != registry().end()) kernel = found->second;
  }
  if (!kernel.invoker) {
    std::fprintf(stderr, "cusim: error: %s:%d: cudaLaunchKernel: %p is not a __global__ function\n",
                 rt::base_name(file), line, func);
    return rt::set_error(cudaErrorInvalidDeviceFunction);
  }
  kernel.invoker(func, config(grid, block, shared, stream), args, kernel.name, file, line);
  return cudaPeekAtLastError();
}

} // namespace cusim

// ---- the driver API (driver.cpp): the name of a registered __global__ function, or null --------
namespace cusim {
const char *registered_kernel_name(const void *func) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  auto found = registry().find(func);
  return found == registry().end() ? nullptr : found->second.name;
}
} // namespace cusim
// ---- end of the driver API's lines --------------------------------------------------------------
