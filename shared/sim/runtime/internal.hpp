// Internal interfaces of libcusim (not installed, not seen by programs).
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstdarg>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

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
void note_error_task(const char *message); // remembers the "(task N)" a cusim: error: line names

// ---- streams (streams.cpp) ----------------------------------------------------------------------
// One in-order queue per stream, run lazily: only what the host waits for runs (see streams.cpp).
// A vector clock: per stream index, the last operation of that stream known to come first.
using vclock = std::vector<uint64_t>;
struct point { // one operation: its stream, its place in it, what is ordered before it
  int stream = 0;
  uint64_t seq = 0;
  vclock vc;
};
// A byte range an operation reads or writes (copies and memsets know theirs exactly).
struct mem_access {
  const void *p;
  size_t bytes;
  bool write;
};
// Queues op on stream; `accesses` are checked against unordered work on other streams (a race
// is reported and made sticky). Returns the operation's point.
point enqueue(cudaStream_t stream, std::function<void()> op, const char *what = nullptr,
              const std::vector<mem_access> &accesses = {});
// The hook for ranges known later (a kernel's, from instrumentation): checked as at enqueue.
void note_accesses(const point &p, const std::vector<mem_access> &accesses, const char *what);
void stream_created(cudaStream_t s, unsigned flags);
void stream_destroyed(cudaStream_t s);
void wait_point(cudaStream_t stream, const point &p); // later work on stream comes after p
// Memory was freed: its earlier accesses no longer conflict (a reuse is ordered after the free).
void forget_accesses(const void *p, size_t bytes);
void sync_stream(cudaStream_t stream); // cudaStreamSynchronize
void sync_legacy(); // a blocking call on the legacy stream (cudaMemcpy, cudaMemset...)
cudaError_t query_stream(cudaStream_t stream); // runs one operation; cudaSuccess when done
// Runs every stream to its end (cudaDeviceSynchronize and other device-wide waits).
void run_queue();
void event_recorded(cudaEvent_t e, const point &p);
void event_forgotten(cudaEvent_t e);
void sync_event(cudaEvent_t e);
cudaError_t query_event(cudaEvent_t e); // runs one operation; cudaSuccess when reached
void wait_event(cudaStream_t stream, cudaEvent_t e);
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

namespace cusim {
namespace rt {
// ---- the memory checker (instrument.cpp, with hooks in scheduler.cpp and api.cpp)
// ---------------- What the checker knows of the simulated thread that runs on this worker.
struct instr_thread {
  bool on = false;        // a block of a launch runs here
  uint32_t gid1_base = 0; // number in the grid of the block's thread 0, plus one (0: too many)
  unsigned nthreads = 0;  // threads per block
  const unsigned *bar_gen = nullptr;  // the block's __syncthreads() count
  const uint32_t *warp_gen = nullptr; // per warp: completed __syncwarp()s and warp functions
};
extern __thread instr_thread itls;
// True when the program has instrumented code and the arena could be reserved.
bool checker_on();
// Memory from the arena (device memory, or a block's shared memory), with gaps between blocks;
// nullptr when the checker is off or the arena is full (then the caller allocates as before).
void *arena_alloc(size_t size, bool shared);
bool arena_free(void *p); // false when p is not in the arena
bool in_arena(const void *p);
void checker_launch_begin(); // a launch starts: the race records of the last one are dropped
void checker_worker_done();  // this worker runs no more blocks of the launch
// The race records this worker's blocks made so far join the launch's (before a grid.sync(), whose
// last block to arrive then drops them all with checker_launch_begin(): the grid is ordered).
void checker_flush_worker();
// End the running block with the checker's message (scheduler.cpp).
[[noreturn]] void race_failed(const char *message);
[[noreturn]] void bounds_failed(const char *message);
// ---- cooperative launches (cooperative.cpp, with hooks in scheduler.cpp and api.cpp) -----------
// A cooperative launch runs each block on a worker of its own, so all are resident at once, and
// grid.sync() is a barrier of those workers.
struct grid_barrier;
grid_barrier *grid_barrier_create(uint64_t blocks, const std::atomic<bool> *failed);
void grid_barrier_destroy(grid_barrier *g);
void grid_worker_done(grid_barrier *g); // a worker of the launch has no block left to run
bool cooperative_launch_requested();    // the launch now submitted is cudaLaunchCooperativeKernel's
// The running launch's grid barrier (nullptr when it was not launched cooperatively).
grid_barrier *running_grid();
// Ends the calling worker's block with err (message printed if it is the launch's first error).
[[noreturn]] void fail_running_block(cudaError_t err, const char *message);
} // namespace rt
} // namespace cusim

namespace cusim {
namespace rt {
// ---- the stream progress thread (progress.cpp; issue 18) ---------------------------------------
// A host function was queued at p: the progress thread runs its stream up to p (streams.cpp's
// run_in_background: what a wait would run, without the host seeing it complete).
void host_function_queued(const point &p);
void run_in_background(const point &p);
} // namespace rt
} // namespace cusim
