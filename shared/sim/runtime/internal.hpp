// Internal interfaces of libcusim (not installed, not seen by programs).
#pragma once

#include <cuda_runtime.h>

#include <cstdarg>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace cusim {
namespace rt {

// ---- errors (api.cpp) ---------------------------------------------------------------------------
// Records e as the calling thread's last error (when it is one) and returns it.
cudaError_t set_error(cudaError_t e);
// A sticky execution error (illegal address, assert, barrier divergence...): every later call
// returns it, as on a GPU, until cudaDeviceReset.
void set_sticky(cudaError_t e);
cudaError_t sticky();
// Prints "cusim: error: ..." on stderr (one line).
void report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

// ---- the queue (api.cpp) ------------------------------------------------------------------------
// Everything a stream does runs in one global in-order queue at the next synchronizing call.
void enqueue(cudaStream_t stream, std::function<void()> op);
// Runs the queue to its end (all streams). Called by every synchronizing API call.
void run_queue();
bool valid_stream(cudaStream_t s);

// ---- memory registry (api.cpp) ------------------------------------------------------------------
enum class mem_kind { device, managed, pinned, registered, pool, symbol };
const char *kind_name(mem_kind k);
struct lookup {
  bool live = false;  // inside (or one past the end of) a live allocation
  bool freed = false; // inside an allocation that was freed
  mem_kind kind = mem_kind::device;
  uintptr_t base = 0;
  size_t size = 0;
};
lookup find(const void *p);

// ---- scheduler (scheduler.cpp) ------------------------------------------------------------------
// Runs one launch to completion on the worker threads; returns its execution error, if any.
cudaError_t run_kernel(detail::kernel_base *k);
int worker_count();
size_t max_dynamic_shared();

} // namespace rt
} // namespace cusim

namespace cusim {
namespace rt {
// ---- crash reports (crash.cpp, with hooks in scheduler.cpp and api.cpp) -------------------------
// What the calling worker thread is running, for a fault at address `fault`.
struct running_context {
  const char *kernel = nullptr;
  const char *file = nullptr; // where it was launched
  int line = 0;
  uint3 block{0, 0, 0};
  uint3 thread{0, 0, 0};
  bool in_guard = false; // the fault hit the guard page below the thread's stack
  size_t stack_size = 0; // that stack's size
};
bool current_context(uintptr_t fault, running_context *out); // false outside a kernel
// The live allocation nearest to p (or containing it); never blocks (empty when the registry
// is busy), so a signal handler may call it.
lookup nearest_allocation(const void *p);
// Installs the SIGSEGV/SIGBUS report on an alternate stack for the calling thread (once).
void install_crash_handler();

} // namespace rt
} // namespace cusim
