// cudaLaunchKernel: the registry of __global__ functions (filled by what the rewriter writes
// after each kernel definition) and the launch through it.
#include "cuda_runtime.h"
#include "internal.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <link.h>
#include <mutex>
#include <sys/uio.h>
#include <unistd.h>
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

namespace rt {
// Before a shared object is unloaded (an NVRTC module, cuModuleUnload), forgets the kernels its
// constructors registered: their addresses and names lie in its memory, and a later launch by
// name (launch_bound_by_name) would read them after dlclose.
void unregister_kernels_of(void *handle) {
  struct link_map *map = nullptr;
  if (handle == nullptr || dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr) return;
  std::lock_guard<std::mutex> lock(registry_mutex());
  for (auto it = registry().begin(); it != registry().end();) {
    Dl_info info{};
    if (dladdr(it->first, &info) != 0 && (uintptr_t)info.dli_fbase == (uintptr_t)map->l_addr)
      it = registry().erase(it);
    else
      ++it;
  }
}
} // namespace rt

// The argument array of cudaLaunchKernel and cuLaunchKernel holds the ADDRESS of each argument:
// the call copies sizes[i] bytes from args[i] on the host. A value in its place (a device
// pointer, an int cast to a pointer) is read as an address: on a GPU the host crashes inside the
// call (device memory is not the host's), or copies garbage. The simulator checks each entry
// before reading it and refuses the launch (cudaErrorInvalidValue) with a line naming it:
// stricter than a GPU, which crashes or runs on garbage.
bool check_kernel_params(void **args, std::size_t count, const std::size_t *sizes, const char *name,
                         const char *file, int line) {
  if (count == 0) return true;
  if (args == nullptr) {
    rt::report("kernel '%s' launched at %s: it has %zu parameter%s and the argument array is "
               "NULL (pass an array holding the address of each argument)",
               name, rt::place(file, line).c_str(), count, count == 1 ? "" : "s");
    rt::set_error(cudaErrorInvalidValue);
    return false;
  }
  for (std::size_t i = 0; i < count; ++i) {
    const void *p = args[i];
    const char *why = nullptr;
    rt::lookup l = rt::find(p);
    if ((uintptr_t)p < 65536) {
      why = "a small number, not an address";
    } else if (l.live && (l.kind == rt::mem_kind::device || l.kind == rt::mem_kind::pool ||
                          l.kind == rt::mem_kind::symbol)) {
      why = "device memory, which the host cannot read";
    } else if (!l.live) {
      char probe[16];
      struct iovec local = {probe, sizes[i] < sizeof probe ? sizes[i] : sizeof probe};
      struct iovec remote = {const_cast<void *>(p), local.iov_len};
      if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) < 0 && errno == EFAULT)
        why = "memory the host cannot read";
    }
    if (why) {
      rt::report("kernel '%s' launched at %s: argument array entry %zu (%p) is not the address "
                 "of an argument: it points to %s. The launch copies each argument from the "
                 "address given: put &a in the array, not a (on a GPU the program crashes "
                 "inside the launch call)",
                 name, rt::place(file, line).c_str(), i, p, why);
      rt::set_error(cudaErrorInvalidValue);
      return false;
    }
  }
  return true;
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

int launch_bound_of(const void *kernel, const char *name) {
  {
    std::lock_guard<std::mutex> lock(registry_mutex());
    auto found = registry().find(kernel);
    if (found != registry().end()) return found->second.max_threads;
  }
  return launch_bound_by_name(name);
}

std::vector<const void *> kernels_named(const char *name) {
  std::vector<const void *> found;
  if (!name) return found;
  const char *colons = std::strrchr(name, ':');
  const char *bare = colons ? colons + 1 : name;
  std::lock_guard<std::mutex> lock(registry_mutex());
  for (const auto &entry : registry())
    if (entry.second.name && std::strcmp(entry.second.name, bare) == 0)
      found.push_back(entry.first);
  return found;
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
  struct config cfg = config(grid, block, shared, stream);
  cfg.kernel = func; // its own bounds, not those of every kernel of its name
  // This launch's own result: an error an earlier call left unread is neither returned (a
  // launch refused before must not fail this one) nor lost (cudaGetLastError still says it).
  cudaError_t earlier = cudaGetLastError();
  kernel.invoker(func, cfg, args, kernel.name, file, line);
  cudaError_t e = cudaPeekAtLastError();
  if (e == cudaSuccess && earlier != cudaSuccess) rt::set_error(earlier);
  return e;
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
