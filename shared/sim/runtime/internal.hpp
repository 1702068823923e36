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

// float_cast.cpp's handler of -fsanitize=float-cast-overflow (and nvrtc.cpp's reference that
// keeps it linked) only where no sanitizer runtime brings its own: not under a sanitizer preset
// (sim-asan links libubsan, and Clang's TSan runtime of sim-race has UBSan's handlers, which
// define it); nothing there is compiled with the check anyway.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define CUSIM_NO_FLOAT_CAST_HANDLER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CUSIM_NO_FLOAT_CAST_HANDLER 1
#endif

namespace cusim {
namespace rt {

// ---- errors (device.cpp) ------------------------------------------------------------------------
// Records e as the calling thread's last error (when it is one) and returns it.
cudaError_t set_error(cudaError_t e);
// A sticky execution error (illegal address, assert, barrier divergence...): every later call
// returns it, as on a GPU, until cudaDeviceReset.
void set_sticky(cudaError_t e);
cudaError_t sticky();
// Prints "cusim: error: ..." on stderr (one line, or wrapped: see messages.cpp).
void report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void note_error_task(const char *message); // remembers the "(task N)" a cusim: error: line names

// ---- leaks (leaks.cpp) -------------------------------------------------------------------------
// The program's call that is allocating (an API entry sets it from its return address; the
// allocation takes it). At exit, device, managed and pool memory never freed is listed by the call
// that allocated it, as compute-sanitizer --leak-check full does; CUSIM_LEAK_CHECK=0 turns it off.
extern thread_local const void *alloc_site;
void watch_for_leaks(); // the first allocation registers the report at exit
// Sets alloc_site for the API call it lives in, unless an outer API call (cuMemAlloc around
// cudaMalloc, cudaStreamCreate around cudaStreamCreateWithPriority) set it first; clears it when
// that outer call returns, so no early return leaves a stale site behind.
struct creation_site {
  bool outer;
  explicit creation_site(const void *pc) : outer(alloc_site == nullptr) {
    if (outer) alloc_site = pc;
  }
  ~creation_site() {
    if (outer) alloc_site = nullptr;
  }
  creation_site(const creation_site &) = delete;
  creation_site &operator=(const creation_site &) = delete;
};
// The other resources a program makes and must release, listed at exit with device memory and
// checked by the workbook's harness (cusim_task_leaks): each is recorded with alloc_site.
enum class resource { stream, event, cublas_handle, curand_generator, nvrtc_program, module };
void resource_created(resource kind, const void *handle);
void resource_released(const void *handle);

// ---- messages (messages.cpp) -------------------------------------------------------------------
// The columns to wrap the simulator's lines at (0: one line per message), fixed at start-up.
int message_columns();
// Writes HEAD then TEXT into OUT (at most CAP bytes, NUL-terminated), wrapped at COLUMNS with
// continuation lines indented by two spaces, and a final newline; allocates nothing (the crash
// handler uses it). Returns the length.
size_t format_message(char *out, size_t cap, const char *head, const char *text, int columns);
// Flushes stdout, then prints HEAD and TEXT on stderr, wrapped as message_columns() says.
void print_message(const char *head, const char *text);
// The file name without its folders (allocates nothing).
const char *base_name(const char *path);
// The checkout this build of the simulator was made from, or "" (nvrtc_build.cpp).
const char *built_in_source_root();
// PATH as a program of this build names it (__FILE__, a line table), as one to open: the
// workbook's builds name the checkout's files relative to its root (cusim.cmake), and an object
// that ccache brought from another copy of the checkout names that copy's. Others unchanged.
std::string source_path(const std::string &path);
// The task of the workbook exercise that holds line LINE of PATH ("// ---- task N" ... "// ---- end
// of task N"), or 0. PATH as source_path takes it.
int task_at(const std::string &path, long line);
// "exercise.cu:42 (task 3)": FILE without its folders, LINE, and its task when it has one.
std::string place(const char *file, int line);
// The __launch_bounds__ maximum of the kernel a launch names, or 0 (launch_kernel.cpp).
int launch_bound_by_name(const char *name);
// The same of the kernel at KERNEL where it is registered (a template's instance with bounds
// is), else by NAME (launch_kernel.cpp).
int launch_bound_of(const void *kernel, const char *name);
// Forgets the kernels a shared object registered, before dlclose (launch_kernel.cpp).
void unregister_kernels_of(void *handle);
} // namespace rt
// The name of a registered __global__ function, or null (launch_kernel.cpp).
const char *registered_kernel_name(const void *func);
namespace rt {
// The registered __global__ functions of that name ("saxpy", "ns::saxpy": the bare name), or none
// (a template's instances are registered only where it has __launch_bounds__) (launch_kernel.cpp).
std::vector<const void *> kernels_named(const char *name);
// Why a GPU refuses a launch of this shape of the kernel NAME: block and grid dimensions, its
// dynamic shared memory, its __launch_bounds__ maximum. Writes the reason into WHY and returns 1
// (2 for the bound), or writes "" and returns 0 (launches.cpp).
int launch_shape_problem(const dim3 &grid, const dim3 &block, size_t shared, const char *name,
                         char *why, size_t cap, const void *kernel = nullptr);
// "; CUDA 13 answers it where older documentation names cudaErrorInvalidConfiguration" the
// first time a process asks, then "" (launches.cpp).
const char *invalid_value_note();
// " at file:line (task N)" for a code address in the program, or "" (addr2line: error paths only).
std::string source_line(const void *pc, bool outside_simulator = false);
// " in FUNCTION at file:line (task N)" for a code address in the program's own code, or ""
// (addr2line: the crash handler). exact: pc is a faulting instruction, not a return address.
std::string function_place(const void *pc, bool exact);
// The same as PATH (as the line tables name it) and LINE; false when the address has no line.
bool resolve_site(const void *pc, bool outside_simulator, std::string *path, long *line);

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
// A kernel's side of the stream-race check: its bytes are known only while it runs (the memory
// checker sees them). kernel_queued keeps, until it has run, the records of work on other streams
// that it is not ordered with; kernel_watch_begin, just before it runs, has the checker watch
// those records' bytes; kernel_watch_end reports a conflict it saw as a stream race (true: one
// was reported; the caller makes it sticky). Without the checker nothing is watched.
void kernel_queued(const point &p);
bool kernel_watch_begin(const point &p);
// kernel: nullptr when it failed (nothing reported); watched: what kernel_watch_begin returned.
bool kernel_watch_end(const point &p, const detail::kernel_base *kernel, bool watched);
// The hook for ranges known later (a kernel's, from instrumentation): checked as at enqueue.
void note_accesses(const point &p, const std::vector<mem_access> &accesses, const char *what);
void stream_created(cudaStream_t s, unsigned flags);
void stream_destroyed(cudaStream_t s);
// A stream of the runtime's own that runs branch N (from 1) of CUDA graphs (graphs.cpp): named so
// in the stream-race messages.
void stream_is_graph_branch(cudaStream_t s, int branch);
// Stream 0 is the per-thread default stream (CUDA_API_PER_THREAD_DEFAULT_STREAM), not the legacy.
bool zero_is_per_thread();
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

// ---- memory registry (memory.cpp) ---------------------------------------------------------------
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

// ---- graph memory (graph_memory.cpp) ------------------------------------------------------------
// A graph allocation in the registry: kind pool, with this flag.
constexpr unsigned graph_memory_flag = 0x40000000u;
// The memory of one allocation node, reserved when the node is made (its address fixed then) and
// shared by the node's copies; the reservation goes with the last of them.
struct graph_block;
std::shared_ptr<graph_block> graph_block_reserve(size_t bytes);
void *graph_block_ptr(const graph_block *b);
size_t graph_block_size(const graph_block *b);
bool graph_block_allocated(const graph_block *b);           // in the host's order
std::shared_ptr<graph_block> graph_block_at(const void *p); // the one starting at p, or null
// In the host's order, as a launch queues its nodes: the allocation node (false, reported: still
// allocated from an earlier launch; freed_in_launch: the launch frees it too) and a free node
// (false, reported: not allocated now).
bool graph_block_launch_alloc(graph_block *b, const char *api, bool freed_in_launch);
bool graph_block_launch_free(graph_block *b, const char *api);
// A launch on stream s allocates and frees this much within itself (the footprint).
void graph_memory_launched(cudaStream_t s, size_t bytes_within);
// When the node runs: the memory checker lets kernels use the memory, or stops them.
void graph_block_run(graph_block *b, bool allocate);
// cudaFree (after a device-wide synchronization) or cudaFreeAsync (async) of graph memory.
cudaError_t graph_memory_free(void *p, const char *api, bool async, cudaStream_t stream);
// The memory checker's words for an address inside graph memory that is not allocated now.
bool graph_memory_describe(uintptr_t a, char *buf, size_t n);
// Gives back the reservations no node holds any more (called where no lock is held).
void graph_memory_release_pending();
// The memory checker: [p, p + bytes) may be used by kernels, or not (a no-op outside the arena).
void checker_mark(const void *p, size_t bytes, bool addressable);

// ---- scheduler (scheduler.cpp) ------------------------------------------------------------------
// Runs one launch to completion on the worker threads; returns its execution error, if any.
cudaError_t run_kernel(detail::kernel_base *k);
int worker_count();
size_t max_dynamic_shared();
// The dynamic shared memory a launch of the kernel NAME may ask for: 48 KiB, or what
// cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize) set; the loosest of its
// namesakes, and of every kernel when none is registered by that name (device.cpp).
size_t max_dynamic_shared_of(const char *name);

} // namespace rt
} // namespace cusim

namespace cusim {
namespace rt {
// ---- crash reports (crash.cpp, with hooks in scheduler.cpp and the API) -------------------------
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
// ---- the memory checker (instrument.cpp, with hooks in scheduler.cpp and the API)
// ---------------- What the checker knows of the simulated thread that runs on this worker.
struct instr_thread {
  bool on = false;        // a block of a launch runs here
  uint32_t gid1_base = 0; // number in the grid of the block's thread 0, plus one (0: too many)
  unsigned nthreads = 0;  // threads per block
  const unsigned *bar_gen = nullptr;  // the block's __syncthreads() count
  const uint32_t *warp_gen = nullptr; // per warp: completed __syncwarp()s and warp functions
  // a block runs here, neither profiled nor watched (checker_fast_ok), with no read of
  // uninitialized __shared__ memory pending: the callbacks may take the page test (page_ok)
  bool fast = false;
};
// Hidden: only the runtime reads it, so in a program its accesses are at a fixed offset from the
// thread pointer (the linker relaxes them), with no load of that offset on every checked access.
extern __thread instr_thread itls __attribute__((visibility("hidden"), tls_model("initial-exec")));
// True when the program has instrumented code and the arena could be reserved.
bool checker_on();
// Memory from the arena (device memory, or a block's shared memory), with gaps between blocks;
// nullptr when the checker is off or the arena is full (then the caller allocates as before).
void *arena_alloc(size_t size, bool shared);
bool arena_free(void *p); // false when p is not in the arena
bool in_arena(const void *p);
// The first launch of a program the checker cannot watch says so (one line on stderr).
void checker_note_off();
// The bytes of unordered work on other streams that the next kernel must not touch (a write,
// or a read where the other work writes): watched only while the kernel runs, at one branch per
// access when nothing is watched. checker_watch: false when the checker is off.
struct watch_range {
  uintptr_t lo, hi;
  bool other_writes, other_atomic; // other_atomic: another kernel's atomics only
};
struct watch_hit { // the span of the conflicting accesses to one range
  uintptr_t lo, hi;
  bool any, write;
};
// The bytes a kernel read and wrote (sorted, merged runs); complete: no worker ran out of room.
struct kernel_footprint {
  std::vector<std::pair<uintptr_t, uintptr_t>> reads, writes, atomics;
  bool complete = true;
};
// footprint: also keep the kernel's own bytes (another stream's unordered kernel is queued).
bool checker_watch(const std::vector<watch_range> &ranges, bool footprint);
std::vector<watch_hit> checker_unwatch(kernel_footprint *footprint);
void checker_launch_begin(); // a launch starts: the race records of the last one are dropped
void checker_worker_done();  // this worker runs no more blocks of the launch
// Neither the profiler nor a watch is on: a block starting now may take the callbacks' page test.
bool checker_fast_ok();
// A block ends (all its threads done): a read of __shared__ memory no thread of it wrote, not yet
// reported, ends the launch with its message.
void checker_block_end();
// The race records this worker's blocks made so far join the launch's (before a grid.sync(), whose
// last block to arrive then drops them all with checker_launch_begin(): the grid is ordered).
void checker_flush_worker();
// The checker stopped a kernel with this message (counted for the exit status: checker_exit).
void checker_stopped(const char *message);
// End the running block with the checker's message (scheduler.cpp).
[[noreturn]] void race_failed(const char *message);
[[noreturn]] void bounds_failed(const char *message);
// Asynchronous copies (async_copy.cpp): a copy issued (its destination written by the issuing
// thread, its source read) and completed (any access of the destination between is reported).
void checker_async_issue(void *dst, size_t bytes, const void *src, size_t src_bytes,
                         const void *pc);
void checker_async_done(void *dst, size_t bytes, unsigned issuer_tid, const void *issue_pc,
                        const char *file, int line);
// The site of thread tid's copy whose destination holds a, pending or among its last completed
// ones (false: none).
bool async_issue_site(uintptr_t a, unsigned tid, const char **file, int *line, bool *pending);
std::string thread_text_of(uint3 t);       // "(x,y,z)"
void async_block_begin(unsigned nthreads); // a block starts: no copy pending
void async_block_end();                    // its copies never waited for arrive now
// ---- cooperative launches (cooperative.cpp, with hooks in scheduler.cpp and the API) -----------
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
// ---- the profiler (profile.cpp, fed by instrument.cpp's check(), hooks in scheduler.cpp) -------
extern bool prof_on; // counting: read on every checked access, so it costs one load when off
void profile_access(uintptr_t a, unsigned size, bool write, const void *pc, bool atomic,
                    bool shared);
void profile_launch_begin(const detail::kernel_base *k);
void profile_launch_end();
void profile_block_begin();                     // after start_block set itls up
void profile_worker_done(size_t static_shared); // this worker runs no more blocks of the launch

// ---- the stream progress thread (progress.cpp; issue 18) ---------------------------------------
// A host function was queued at p: the progress thread runs its stream up to p (streams.cpp's
// run_in_background: what a wait would run, without the host seeing it complete).
void host_function_queued(const point &p);
void run_in_background(const point &p);
} // namespace rt
} // namespace cusim

namespace cusim {
namespace rt {
// ---- CUDA graphs and stream capture (graphs.cpp, with hooks in streams.cpp, launches.cpp and
// stream_api.cpp) ----------------------------------------------------------------------------
// Any stream capturing now: one load on every enqueue and launch when none is.
extern std::atomic<int> captures_active;
// cudaMallocAsync and cudaFreeAsync on a capturing stream: an allocation node (its address in
// *ptr) or a free node of the capture. True when the stream is capturing (*status: the result).
bool capture_mem_alloc(cudaStream_t stream, size_t size, void **ptr, cudaError_t *status);
bool capture_mem_free(cudaStream_t stream, void *ptr, cudaError_t *status);
// A launch prepared by the launch path (arguments copied, checks done): taken into a graph when it
// is recorded for cudaGraphAddKernelNode or its stream is capturing (then true: the graph owns k).
bool graph_takes_launch(detail::kernel_base *k, bool pointers_ok);
// An operation queued on a capturing stream (enqueue): recorded as a node of the capture when the
// API call that queues it may be captured (capturable_call), else refused with one line and the
// capture invalidated. True when the stream is capturing (nothing is queued then).
bool graph_takes_op(cudaStream_t stream, const std::function<void()> &fn, const char *what,
                    const std::vector<mem_access> &accesses);
// The API calls whose queued operation may be recorded by a capture (copies, memsets, graph
// launches) hold one of these while they queue it.
extern thread_local int capturable_depth;
struct capturable_call {
  capturable_call() { ++capturable_depth; }
  ~capturable_call() { --capturable_depth; }
  capturable_call(const capturable_call &) = delete;
  capturable_call &operator=(const capturable_call &) = delete;
};
// Queues a prepared launch on stream, the path of every launch (the stream-race watch, the
// scheduler, the sticky error): shared, so a graph's kernel node runs at each of its launches.
void enqueue_launch(cudaStream_t stream, std::shared_ptr<detail::kernel_base> k);
// The same launch on a capturing stream becomes a kernel node of the capture (true).
bool graph_takes_launch_shared(cudaStream_t stream, const std::shared_ptr<detail::kernel_base> &k);
// cudaGraphAddKernelNode runs the launch path with a slot for the prepared launch.
extern thread_local std::shared_ptr<detail::kernel_base> *kernel_node_slot;
inline bool recording_kernel_node() {
  return kernel_node_slot != nullptr;
}
// The stream is capturing: API calls with a capture's meaning (graphs.cpp) take it over and
// return true, with their status in *status.
bool capture_event_record(cudaEvent_t event, cudaStream_t stream, cudaError_t *status);
bool capture_stream_wait(cudaStream_t stream, cudaEvent_t event, cudaError_t *status);
bool capture_host_function(cudaStream_t stream, cudaHostFn_t fn, void *data, cudaError_t *status);
// A wait the host may not do while a capture is under way (cudaStreamSynchronize of a capturing
// stream, cudaDeviceSynchronize during one): refused with one line, the capture invalidated.
// stream: the stream waited for, or nullptr for the whole device.
bool capture_refuses_sync(const char *api, cudaStream_t stream, bool device_wide,
                          cudaError_t *status);
void capture_event_forgotten(cudaEvent_t event);
// cudaEventSynchronize or cudaEventQuery of an event last recorded in a capture under way: refused
// with one line (cudaErrorCapturedEvent), as CUDA documents.
bool capture_event_refused(const char *api, cudaEvent_t event, cudaError_t *status);
// A stream destroyed while it takes part in a capture leaves it (the capture is invalidated), so
// that a later stream at the same address is not taken for a capturing one.
void capture_stream_destroyed(cudaStream_t stream);
// A potentially unsafe call (cudaMalloc) while a capture that is not relaxed is under way
// (cudaThreadExchangeStreamCaptureMode's rules): refused with one line, the capture invalidated.
bool capture_prohibits(const char *api, cudaError_t *status);
// The legacy default stream used while a stream that is not cudaStreamNonBlocking is capturing:
// invalid on a GPU (cudaErrorStreamCaptureImplicit); one line, the capture invalidated.
bool capture_refuses_legacy(const char *api);
// A call the simulator cannot capture (what it would make: "a graph memory node") on a capturing
// stream: refused with one line naming it, the capture invalidated (true, with the status).
bool capture_refuses_call(const char *api, cudaStream_t stream, const char *what,
                          cudaError_t *status);
} // namespace rt
} // namespace cusim
