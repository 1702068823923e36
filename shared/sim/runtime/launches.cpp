// Launches: the checks of a launch's configuration and pointer arguments, and its submission to
// its stream (the scheduler runs it when the host waits for that stream).
#include "api_state.hpp"

#include <atomic>
#include <cstdio>
#include <string>

namespace cusim {
// ---- launches -----------------------------------------------------------------------------------

namespace rt {
int launch_shape_problem(const dim3 &grid, const dim3 &block, size_t shared, const char *name,
                         char *why, size_t cap, const void *kernel) {
  why[0] = '\0';
  unsigned long long threads = (unsigned long long)block.x * block.y * block.z;
  if (block.x == 0 || block.y == 0 || block.z == 0)
    std::snprintf(why, cap,
                  "a block of %u x %u x %u threads is empty (every dimension must be at least 1)",
                  block.x, block.y, block.z);
  else if (block.x > 1024 || block.y > 1024 || block.z > 64)
    std::snprintf(why, cap, "block dimensions (%u, %u, %u) exceed the limits (1024, 1024, 64)",
                  block.x, block.y, block.z);
  else if (threads > 1024)
    std::snprintf(
        why, cap,
        "a block of %u x %u x %u = %llu threads exceeds the limit of 1024 threads per block",
        block.x, block.y, block.z, threads);
  else if (grid.x == 0 || grid.y == 0 || grid.z == 0)
    std::snprintf(why, cap,
                  "a grid of %u x %u x %u blocks is empty (every dimension must be at least 1)",
                  grid.x, grid.y, grid.z);
  else if (grid.x > 2147483647u || grid.y > 65535 || grid.z > 65535)
    std::snprintf(why, cap,
                  "grid dimensions (%u, %u, %u) exceed the limits (2147483647, 65535, 65535)",
                  grid.x, grid.y, grid.z);
  // 48 KiB always fits; above it, the kernel's own limit (looked up only then: every launch
  // comes here).
  else if (shared > 48 * 1024 && shared > max_dynamic_shared_of(name))
    std::snprintf(why, cap,
                  "%zu bytes of dynamic shared memory exceed the kernel's limit of %zu bytes "
                  "(raise it with cudaFuncSetAttribute(kernel, "
                  "cudaFuncAttributeMaxDynamicSharedMemorySize, bytes))",
                  shared, max_dynamic_shared_of(name));
  else {
    int bound = kernel ? launch_bound_of(kernel, name) : launch_bound_by_name(name);
    if (bound > 0 && threads > (unsigned long long)bound) {
      std::snprintf(why, cap, "a block of %llu threads exceeds its __launch_bounds__ maximum of %d",
                    threads, bound);
      return 2;
    }
  }
  return why[0] ? 1 : 0;
}

const char *invalid_value_note() {
  static std::atomic<bool> told{false};
  return told.exchange(true) ? ""
                             : "; CUDA 13 answers it where older documentation names "
                               "cudaErrorInvalidConfiguration";
}
} // namespace rt

namespace rt {
void enqueue_launch(cudaStream_t stream, std::shared_ptr<detail::kernel_base> k) {
  // A capturing stream records the launch as a node (a graph launched into it).
  if (captures_active.load(std::memory_order_relaxed) != 0 && graph_takes_launch_shared(stream, k))
    return;
  // The kernel's point, for the stream-race check when it runs (set before anything can run it).
  auto at = std::make_shared<point>();
  *at = enqueue(stream, [k, at]() mutable {
    bool watching = false;
    cudaError_t e = cudaSuccess;
    if (sticky() == cudaSuccess) {
      watching = kernel_watch_begin(*at);
      e = run_kernel(k.get());
    }
    // A kernel that failed has said why; a conflict it saw is not reported on top.
    bool race = kernel_watch_end(*at, e == cudaSuccess ? k.get() : nullptr, watching);
    if (e != cudaSuccess)
      set_sticky(e);
    else if (race)
      set_sticky(cudaErrorIllegalState);
    k.reset(); // the launch's arguments go now (a graph's node keeps its own)
  });
  kernel_queued(*at);
}
} // namespace rt

namespace detail {

int launch_begin(const dim3 &grid, const dim3 &block, size_t shared, cudaStream_t stream,
                 const char *name, const char *file, int line, const void *kernel) {
  if (rt::sticky() != cudaSuccess) {
    rt::set_error(rt::sticky());
    return 1;
  }
  // A GPU refuses every launch of an impossible shape with cudaErrorInvalidValue (CUDA 13.0 on
  // an H200; the kernel's __launch_bounds__ maximum included: it was compiled, its registers
  // budgeted, for at most that many threads). Nothing runs; the error is not sticky.
  char why[320];
  int problem = rt::launch_shape_problem(grid, block, shared, name, why, sizeof why, kernel);
  if (problem) {
    // A bound names its task (a learner's mistake); a shape names its line only, as ever.
    std::string where = problem == 2
                            ? rt::place(file, line)
                            : std::string(rt::base_name(file)) + ":" + std::to_string(line);
    rt::report("invalid configuration in the launch of kernel '%s' at %s: %s "
               "(cudaErrorInvalidValue%s)",
               name, where.c_str(), why, rt::invalid_value_note());
    rt::set_error(cudaErrorInvalidValue);
    return 1;
  }
  if (!rt::valid_stream(stream)) {
    rt::report("launch of kernel '%s' at %s:%d: stream %p is not a live stream", name,
               rt::base_name(file), line, (void *)stream);
    rt::set_error(cudaErrorInvalidResourceHandle);
    return 1;
  }
  return 0;
}

bool check_pointer_arg(const void *p, int index, const char *name, const char *file, int line) {
  rt::lookup l = rt::find(p);
  if (l.live) return true;
  if (l.freed) {
    rt::report("kernel '%s' launched at %s:%d: argument %d (%p) points into device memory that was "
               "already freed; "
               "on a GPU the kernel would fail with an illegal memory access",
               name, rt::base_name(file), line, index, p);
  } else {
    rt::report("kernel '%s' launched at %s:%d: argument %d (%p) is a host pointer, not memory from "
               "cudaMalloc, cudaMallocManaged or cudaHostAlloc. Copy the data to device memory "
               "and pass the device pointer. (Most GPUs fail with an illegal memory access; one "
               "that can read pageable memory (HMM, cudaDevAttrPageableMemoryAccess = 1) runs it, "
               "slowly. The simulator is stricter and always refuses it.)",
               name, rt::base_name(file), line, index, p);
  }
  return false;
}

namespace {
std::atomic<bool> planted_failure{false}; // cusim_plant_kernel_failure
}

void launch_submit(kernel_base *k, bool pointers_ok) {
  k->cooperative = rt::cooperative_launch_requested();
  // Recorded into a graph (cudaGraphAddKernelNode, or a capturing stream), not queued.
  if (rt::captures_active.load(std::memory_order_relaxed) != 0 || rt::recording_kernel_node())
    if (rt::graph_takes_launch(k, pointers_ok)) return;
  if (!pointers_ok) {
    cudaStream_t stream = k->stream;
    delete k;
    rt::enqueue(stream, [] { rt::set_sticky(cudaErrorIllegalAddress); });
    return;
  }
  if (planted_failure.exchange(false)) { // the launch succeeds; the kernel fails when it runs
    rt::enqueue(k->stream, [k] {
      if (rt::sticky() == cudaSuccess) {
        char text[256];
        std::snprintf(text, sizeof text,
                      "kernel '%s' failed on purpose (the program planted the error with "
                      "cusim_plant_kernel_failure): the wait reports cudaErrorLaunchFailure",
                      k->name ? k->name : "?");
        rt::print_message("cusim: note: ", text);
        rt::set_sticky(cudaErrorLaunchFailure);
      }
      delete k;
    });
    return;
  }
  rt::enqueue_launch(k->stream, std::shared_ptr<kernel_base>(k));
}

void register_symbol(const void *addr, size_t size) {
  std::lock_guard<std::mutex> lock(rt::mu);
  auto it = rt::live.find((uintptr_t)addr);
  if (it == rt::live.end())
    rt::live[(uintptr_t)addr] = rt::allocation{size, rt::mem_kind::symbol, 0, nullptr};
}

} // namespace detail
} // namespace cusim

extern "C" void cusim_plant_kernel_failure(void) {
  cusim::detail::planted_failure.store(true);
}
