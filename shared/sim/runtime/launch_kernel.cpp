// cudaLaunchKernel: the registry of __global__ functions (filled by what the rewriter writes
// after each kernel definition) and the launch through it.
#include "cuda_runtime.h"
#include "internal.hpp"

#include <cstdio>
#include <cstring>
#include <mutex>
#include <unordered_map>

namespace cusim {
namespace {
struct registered_kernel {
  const char *name;
  kernel_invoker invoker;
  int max_threads; /* __launch_bounds__'s maximum, or 0 */
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

void register_kernel(const void *func, const char *name, kernel_invoker invoker, int max_threads) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry()[func] = registered_kernel{name, invoker, max_threads > 0 ? max_threads : 0};
}

int kernel_max_threads(const void *func) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  auto found = registry().find(func);
  if (found == registry().end() || found->second.max_threads <= 0) return 1024;
  return found->second.max_threads < 1024 ? found->second.max_threads : 1024;
}

namespace rt {
// The __launch_bounds__ maximum of the kernel a <<< >>> launch names ("saxpy", "ns::saxpy"), or
// 0. The launch knows the kernel by the name it was written with, not by its address: only
// when every registered kernel of that name has a bound is it applied (the loosest of them),
// so an overload or a namesake without one never fails a launch it should not.
int launch_bound_by_name(const char *name) {
  if (!name) return 0;
  const char *colons = std::strrchr(name, ':');
  const char *bare = colons ? colons + 1 : name;
  std::lock_guard<std::mutex> lock(registry_mutex());
  int bound = 0;
  for (const auto &entry : registry()) {
    if (!entry.second.name || std::strcmp(entry.second.name, bare) != 0) continue;
    if (entry.second.max_threads <= 0) return 0;
    if (entry.second.max_threads > bound) bound = entry.second.max_threads;
  }
  return bound;
}
} // namespace rt

cudaError_t launch_registered(const char *file, int line, const void *func, dim3 grid, dim3 block,
                              void **args, size_t shared, cudaStream_t stream) {
  registered_kernel kernel{nullptr, nullptr, 0};
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
