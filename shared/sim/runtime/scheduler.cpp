// The grid scheduler: worker threads, fibers, block and warp barriers, device-side diagnostics.
//
// A launch's blocks are shared out over the worker threads (the calling thread is one of them);
// a block never leaves the worker that started it. Inside a block, block_loop (a template in
// cusim_device.h, so the kernel inlines into it) calls the kernel once per thread. A thread that
// reaches a barrier parks: the fiber it runs on becomes "its" fiber, and the loop goes on, on a
// fresh fiber, with the next thread. When every thread the barrier waits for has arrived, they
// are put on the block's ready ring and resumed one after another, in thread order. All of the
// loop's state lives in the block, never on a stack, so whichever fiber runs next carries on.
#include "internal.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#if defined(CUSIM_USE_UCONTEXT)
#include <ucontext.h>
#elif defined(CUSIM_USE_BOOST_CONTEXT)
#include <boost/context/detail/fcontext.hpp>
#elif defined(__x86_64__)
#include "cusim_switch.h"
#else
#error                                                                                             \
    "the built-in fiber switch is x86-64 only: define CUSIM_USE_BOOST_CONTEXT (Boost.Context) or CUSIM_USE_UCONTEXT"
#endif

#if defined(CUSIM_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#include <sanitizer/lsan_interface.h>
#endif
#if defined(CUSIM_TSAN)
#include <sanitizer/tsan_interface.h>
// ThreadSanitizer's dynamic annotations (exported by its runtime).
extern "C" void AnnotateIgnoreWritesBegin(const char *file, int line);
extern "C" void AnnotateIgnoreWritesEnd(const char *file, int line);
// TSan's main thread sleeps a second at exit (atexit_sleep_ms, default 1000) so that threads still
// running may report their races. Here a race is reported by the simulated thread that makes it,
// as it runs: the sleep only let kernels that the program never waited for run on after main
// returned, and it was most of each run's time (a lesson's check under --race makes 9 runs). The
// program's own definition, or TSAN_OPTIONS, still decides.
extern "C" __attribute__((weak, visibility("default"))) const char *__tsan_default_options() {
  return "atexit_sleep_ms=0";
}
#endif

extern "C" void __assert_fail(const char *assertion, const char *file, unsigned int line,
                              const char *function) noexcept __attribute__((noreturn));

__thread cusim::detail::thread_ctx cusim_tls;

namespace cusim {
namespace rt {
namespace {

using detail::block;
using detail::kernel_base;

// ---- fibers -------------------------------------------------------------------------------------

using ctx_t = void *; // a fiber left by a switch: its saved stack pointer (fcontext_t for Boost)

struct fiber {
#if defined(CUSIM_USE_UCONTEXT)
  ucontext_t uc;
#else
  ctx_t ctx = nullptr;
#endif
  char *stack_lo = nullptr; // lowest usable address (above the guard pages)
  size_t stack_size = 0;
  void *map = nullptr; // the mapping, guard pages included
  size_t map_size = 0;
  size_t top_offset = 0; // bytes left unused at the top of the stack (see new_stack_fiber)
  char *top = nullptr;   // stack_lo + stack_size - top_offset: where a fresh context starts
#if defined(CUSIM_ASAN)
  void *fake_stack = nullptr;
  const void *asan_bottom = nullptr; // for the worker's own stack: learnt at the first switch
  size_t asan_size = 0;
#endif
#if defined(CUSIM_TSAN)
  void *tsan_fiber = nullptr; // the scheduling context's: the worker's sched_tsan (tsan_keep)
#endif
};

size_t stack_size_setting() {
  static size_t size = [] {
    // 512 KiB, as a GPU allows a thread (cudaLimitStackSize up to 512 KiB); mapped with
    // MAP_NORESERVE, so only the pages a thread touches take memory.
    size_t s = (size_t)512 << 10;
    if (const char *e = std::getenv("CUSIM_STACK_KB")) {
      long kb = std::strtol(e, nullptr, 10);
      if (kb >= 16) s = (size_t)kb << 10;
    }
    return s;
  }();
  return size;
}

struct block_impl;
struct launch_exec;

enum thread_state : uint8_t {
  st_running = 0,
  st_at_barrier,
  st_at_warp,
  st_ready,
  st_exited,
  st_at_mask,
  st_parked // in park_on (cuda::barrier and the other libcu++ waits): until release_waiters
};

struct warp_state {
  uint32_t arrived = 0;
  uint64_t val[32];
  uint64_t out[32];
  uint32_t mask[32];
  uint8_t src[32];
  uint8_t op[32];
  const char *what[32];
  const char *file[32];
  int line[32];
  // __activemask(): lanes waiting in it, where each called it from, and what each gets.
  uint32_t am_waiting = 0;
  const void *am_site[32];
  uint32_t am_out[32];
};

struct block_impl : block {
  struct worker *w = nullptr;
  kernel_base *k = nullptr;
  launch_exec *exec = nullptr;
  uint3 idx{0, 0, 0};
  // The arrays block's pointers (ready, parked, sp, tidx, state) point into.
  std::vector<unsigned> ready_v;
  std::vector<unsigned> iota;   // 0, 1, ..., nthreads - 1
  std::vector<void *> parked_v; // fiber * of each parked thread
  std::vector<void *> sp_v;     // saved context (ctx_t) of each parked thread
  std::vector<uint3> tidx_v;    // threadIdx of each thread (blocks that are not 1-D)
  std::vector<uint8_t> state_v;
  std::vector<warp_state> warps;
  std::vector<uint32_t> warp_gen; // per warp: completed rendezvous (the memory checker reads it)
  // __syncthreads (the rest of its state is in block)
  unsigned bar_gen = 0;
  int bar_acc[2] = {0, 0};
  // __syncthreads() and cuda::barrier phases completed: the memory checker orders by it
  // (itls.bar_gen)
  unsigned order_gen = 0;
  // per thread, while it is st_parked: what it waits for (park_on), and where
  std::vector<const void *> park_key;
  std::vector<const char *> park_what, park_file;
  std::vector<int> park_line;
#if defined(CUSIM_TSAN)
  std::vector<void *> tsan_threads;
  char bar_sync = 0; // address used as the barrier's release/acquire object
  char end_sync = 0; // threads release at exit; the worker acquires at block end
  std::vector<char> warp_sync;
#endif
};

struct launch_exec {
  kernel_base *k = nullptr;
  uint64_t total = 0;
  std::atomic<uint64_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mu;
  cudaError_t err = cudaSuccess;
  unsigned nthreads = 0;
  size_t shared_limit = 48 * 1024;
  grid_barrier *grid = nullptr; // a cooperative launch's grid.sync() (cooperative.cpp)
  uint64_t gridid = 0;          // %gridid: this launch's number, from 1 in the program's order
};

struct worker {
  unsigned index = 0; // its place in the pool: the %smid of the blocks it runs (special_register)
  fiber native;
  std::vector<fiber *> pool;
  block_impl blk;
  launch_exec *exec = nullptr;
  // shared memory of the running launch
  std::vector<void *> sites;
  std::vector<unsigned> sites_used;
  std::vector<size_t> site_sizes;
  size_t static_shared = 0;
  void *dyn = nullptr;
  size_t dyn_size = 0;
  bool lsan_off = false; // while a failing block is abandoned (see begin_failure)
#if defined(CUSIM_TSAN)
  std::vector<fiber *> retired;  // stacks that ran a thread of the current block
  std::vector<void *> tsan_idle; // per thread index: the TSan fiber of an earlier block's thread
  void *sched_tsan = nullptr;    // the scheduling context of every stack (tsan_keep)
#endif
#if defined(CUSIM_USE_UCONTEXT)
  fiber *pending_from = nullptr;
  bool pending_free = false;
#else
  ctx_t dead_ctx = nullptr; // where a finished fiber's context goes (never resumed)
#if defined(CUSIM_ASAN)
  fiber *last_from = nullptr;
#endif
#endif
};

// The fiber running now (kept in the block, where __syncthreads() reads it).
inline fiber *cur(worker *w) {
  return static_cast<fiber *>(w->blk.cur_fiber);
}

thread_local worker *tl_worker = nullptr;

fiber *new_stack_fiber() {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t size = (stack_size_setting() + page - 1) / page * page;
  static thread_local unsigned serial = 0;
  unsigned s = serial++;
  // Colour the stacks by page: the guard below each stack is 2 to 9 pages (a hash of the
  // serial), so consecutive stacks' tops lie a varying number of pages apart. With one guard
  // page, the default 512 KiB stack put every top exactly 129 pages below the last (mmap places
  // them side by side), and on the Xeon VM measured a barrier crossing then cost up to twice as
  // much: the tops collide in a virtually indexed structure (the TLB's hashed sets, as far as a
  // VM without counters can tell), as at strides of 127 and 258 pages and at none of the others
  // tried (5, 9, 17, 33, 49, 64 to 66, 97, 120 to 140, 192, 255 to 259, 385, 512 to 514, 641,
  // 1025). The guard costs address space only, and a larger one also catches a frame that
  // would have stepped over a single page.
  size_t guard = page * (2 + ((s * 2654435761u) >> 29));
  void *map = mmap(nullptr, guard + size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (map == MAP_FAILED) {
    std::fprintf(stderr, "cusim: fatal: cannot map a fiber stack of %zu bytes\n", size);
    std::abort();
  }
  mprotect(map, guard, PROT_NONE); // a stack overflow faults instead of corrupting
  fiber *f = new fiber;
  f->map = map;
  f->map_size = guard + size;
  f->stack_lo = (char *)map + guard;
  f->stack_size = size;
  // Stagger the stack tops within their page: fibers whose frames sit at the same offset in
  // their pages would all compete for the same few L1 cache sets (measured: 3x slower barriers
  // without this).
  f->top_offset = (s * 64u * 7u) % 4096u;
  f->top = f->stack_lo + f->stack_size - f->top_offset;
  return f;
}

#if defined(CUSIM_TSAN)
// TSan fibers are kept for reuse (issue 26). Making one and destroying it costs about 0.5-2 ms of
// CPU, most of it system time (TSan maps, clears and unmaps its state), and each CUDA thread
// had two: its own, and the scheduling context of the stack it runs on. Now:
// * A CUDA thread's fiber goes back to its worker at the thread's end (tsan_idle, by thread
//   index), and the thread of the same index in a later block on that worker takes it. That
//   orders nothing TSan did not already order: a worker acquires everything its block's threads
//   released before it starts its next block (block_end), and a new thread starts from the
//   worker's clock (tsan_thread_enter switches with synchronisation), so every thread of a block
//   already comes after every thread of the worker's earlier blocks, of this launch or an earlier
//   one (launches run one at a time, under run_mu and the pool's mutex). Within a block each
//   thread keeps a fiber of its own, and blocks on other workers never share one: a race between
//   the threads of a block, or between blocks that run at the same time, is reported as before.
//   A thread's fiber enters and leaves in the scheduler, which is not instrumented, and the
//   kernel's frames are balanced, so its shadow stack is empty again when it is kept.
// * The stacks of a worker share one scheduling fiber (sched_tsan, made once): their scheduling
//   contexts synchronised with each other at every switch anyway (jump), so they were one thread
//   to TSan already. What a fiber needs of its own is a shadow stack (the instrumented frames it
//   entered and has not left), and a scheduling context leaves none behind when it switches:
//   the scheduler is not instrumented, nor is the thread loop (block_loop in cusim_device.h), and
//   the kernel's frames are the CUDA thread's fiber's.
// At most tsan_keep_max fibers wait idle (all workers together): enough for two workers running
// blocks of 1,024 threads (lessons 03 and 13), and well inside TSan's limit of 8,128 live threads,
// since a block takes its fibers from the idle ones first. A cooperative launch (all blocks
// resident: a fiber per CUDA thread live at once) first destroys the idle ones (tsan_drain), so
// it fits at least as many threads as before (then two fibers per CUDA thread were live).
constexpr unsigned tsan_keep_max = 4160;
std::atomic<unsigned> tsan_idle_count{0};
// True if one more fiber may wait idle (and counts it).
bool tsan_keep() {
  unsigned n = tsan_idle_count.load(std::memory_order_relaxed);
  while (n < tsan_keep_max)
    if (tsan_idle_count.compare_exchange_weak(n, n + 1, std::memory_order_relaxed)) return true;
  return false;
}
void tsan_unkeep() {
  tsan_idle_count.fetch_sub(1, std::memory_order_relaxed);
}
// Destroys the idle fibers of w (its workers are idle: called between launches).
void tsan_drain(worker *w) {
  for (void *&f : w->tsan_idle) {
    if (f == nullptr) continue;
    __tsan_destroy_fiber(f);
    f = nullptr;
    tsan_unkeep();
  }
}
#endif

// Returns a fiber whose stack is free: called only after switching off it.
void release_fiber(worker *w, fiber *f) {
#if defined(CUSIM_ASAN)
  // A fiber that was left, not returned from, keeps its frames' redzones poisoned.
  __asan_unpoison_memory_region(f->stack_lo, f->stack_size);
  f->fake_stack = nullptr;
#endif
#if defined(CUSIM_TSAN)
  // Not reused before the block ends (see tsan_thread_leave): recycle_retired puts it back.
  w->retired.push_back(f);
#else
  w->pool.push_back(f);
#endif
}

// Fibers retired during the block go back to the pool (TSan: at a block's start or a launch's end,
// once the worker has acquired what every thread of the finished block released).
void recycle_retired(worker *w) {
#if defined(CUSIM_TSAN)
  for (fiber *f : w->retired) w->pool.push_back(f);
  w->retired.clear();
#else
  (void)w;
#endif
}

void fiber_entry_common(worker *w);

// Fibers switch in one of three ways (chosen at build time):
// * x86-64 (the default there): cusim_switch (include/cusim_switch.h), inline where a thread
//   parks. It pushes the frame pointer and calls its own tail, which stores the stack pointer,
//   loads the other fiber's and returns into it; every other register is declared clobbered, so
//   the compiler saves only what is live in the parked frame. The call and the return pair up,
//   so the return stack buffer stays right when both fibers parked at the same place (every
//   thread of a block at one __syncthreads()). Boost.Context's jump_fcontext ends with an
//   indirect `jmp` instead, which leaves the return stack one entry off, so the barrier
//   function's own `ret` then mispredicts: measured here, 12.7 ns per switch through a call chain
//   with jump_fcontext against 3.0 ns with the out-of-line switch this one replaced. It saves no
//   MXCSR or x87 control word: all fibers of a worker share one floating-point environment, as a
//   GPU thread's code never changes it. In a program built without the memory checker,
//   __syncthreads() itself runs inline in the kernel with this switch (cusim_device.h,
//   sync_block_inline); its slow paths are the functions of detail:: below.
// * CUSIM_USE_BOOST_CONTEXT (other architectures): Boost.Context's fcontext.
// * CUSIM_USE_UCONTEXT (no Boost, or CUSIM_FORCE_UCONTEXT): glibc's swapcontext, a system call.
// A context (ctx_t) is the saved stack pointer of a fiber that was left.
#if defined(CUSIM_USE_UCONTEXT)
void after_resume(worker *w, fiber *me) {
  (void)me;
  if (w->pending_free) release_fiber(w, w->pending_from);
  w->pending_from = nullptr;
}
void switch_to(worker *w, fiber *from, fiber *to, bool free_from) {
  w->blk.cur_fiber = to;
  w->pending_from = from;
  w->pending_free = free_from;
  swapcontext(&from->uc, &to->uc);
  after_resume(w, from);
}
inline void park_and_resume(worker *w, block_impl *b, fiber *self, unsigned, unsigned r) {
  switch_to(w, self, static_cast<fiber *>(b->parked[r]), false);
}
inline void park_and_start(worker *w, block_impl *, fiber *self, unsigned, fiber *f) {
  switch_to(w, self, f, false);
}
inline void finish_and_resume(worker *w, block_impl *b, unsigned r) {
  switch_to(w, cur(w), static_cast<fiber *>(b->parked[r]), true);
}
inline void prefetch_parked(block_impl *, unsigned) {}
void uc_entry() {
  worker *w = tl_worker;
  after_resume(w, cur(w));
  fiber_entry_common(w);
}
fiber *new_fiber(worker *w) {
  fiber *f;
  if (!w->pool.empty()) {
    f = w->pool.back();
    w->pool.pop_back();
  } else {
    f = new_stack_fiber();
  }
  getcontext(&f->uc);
  f->uc.uc_stack.ss_sp = f->stack_lo;
  f->uc.uc_stack.ss_size = f->stack_size - f->top_offset;
  f->uc.uc_link = nullptr;
  makecontext(&f->uc, uc_entry, 0);
  return f;
}
#else
#if defined(CUSIM_USE_BOOST_CONTEXT)
namespace bctx = boost::context::detail;
// Leaves the running fiber, its context stored in *save, for the context `to`.
inline void raw_switch(ctx_t *save, ctx_t to, void *) {
  // The side that resumes stores the context it was left by where that side asked.
  bctx::transfer_t tr = bctx::jump_fcontext(to, save);
  *static_cast<ctx_t *>(tr.data) = tr.fctx;
}
void fcontext_entry(bctx::transfer_t tr);
inline ctx_t make_ctx(char *top, size_t size) {
  return bctx::make_fcontext(top, size, fcontext_entry);
}
#else
} // namespace
} // namespace rt
} // namespace cusim
extern "C" {
// Where a fresh fiber's first switch returns to: calls cusim_fiber_start on its own stack.
void cusim_fiber_trampoline();
__attribute__((visibility("hidden"))) void cusim_fiber_start();
}
__asm__(R"(
  .text
  .globl cusim_fiber_trampoline
  .hidden cusim_fiber_trampoline
  .type cusim_fiber_trampoline, @function
  .p2align 4
cusim_fiber_trampoline:
  .cfi_startproc
  .cfi_undefined rip
  andq $-16, %rsp
  call cusim_fiber_start
  ud2
  .cfi_endproc
  .size cusim_fiber_trampoline, .-cusim_fiber_trampoline
)");
namespace cusim {
namespace rt {
namespace {
static_assert(sizeof(void *) == 8, "the built-in fiber switch is x86-64 only");
// CARRY is the worker's block: a thread parked in __syncthreads() inline finds it in a register.
__attribute__((always_inline)) inline void raw_switch(ctx_t *save, ctx_t to, void *carry) {
  cusim_switch(save, to, carry); // cusim_switch.h
}
// A fresh fiber: its first switch returns into the trampoline.
inline ctx_t make_ctx(char *top, size_t) {
  void **sp = reinterpret_cast<void **>(reinterpret_cast<uintptr_t>(top) & ~(uintptr_t)15) - 2;
  sp[0] = reinterpret_cast<void *>(&cusim_fiber_trampoline);
  sp[1] = nullptr; // ends frame-pointer walks
  return sp;
}
#endif

inline void after_resume(worker *w, fiber *me) {
#if defined(CUSIM_ASAN)
  const void *bottom = nullptr;
  size_t size = 0;
  __sanitizer_finish_switch_fiber(me->fake_stack, &bottom, &size);
  if (w->last_from == &w->native && w->native.asan_bottom == nullptr) {
    w->native.asan_bottom = bottom;
    w->native.asan_size = size;
  }
#else
  (void)me;
#endif
  if (__builtin_expect(w->blk.dying_fiber != nullptr, 0)) {
    release_fiber(w, static_cast<fiber *>(w->blk.dying_fiber));
    w->blk.dying_fiber = nullptr;
  }
}

// Leaves fiber `from` (its context stored in *save, or the fiber freed when save is nullptr) for
// fiber `to`, resuming the context to_ctx.
__attribute__((always_inline)) inline void jump(worker *w, fiber *from, fiber *to, ctx_t to_ctx,
                                                ctx_t *save) {
  w->blk.cur_fiber = to;
#if defined(CUSIM_ASAN)
  w->last_from = from;
  const void *bottom = to == &w->native ? w->native.asan_bottom : to->stack_lo;
  size_t size = to == &w->native ? w->native.asan_size : to->stack_size;
  __sanitizer_start_switch_fiber(save == nullptr ? nullptr : &from->fake_stack, bottom, size);
#endif
#if defined(CUSIM_TSAN)
  // Switches between scheduling contexts synchronise (they share the block's state); the
  // threads' own TSan fibers never synchronise with each other except through barriers.
  // (between two stacks' scheduling contexts, one fiber: nothing to switch)
  if (to->tsan_fiber != __tsan_get_current_fiber()) __tsan_switch_to_fiber(to->tsan_fiber, 0);
#endif
  if (save == nullptr) {
    w->blk.dying_fiber = from;
    save = &w->dead_ctx;
  }
  raw_switch(save, to_ctx, &w->blk);
  after_resume(w, from);
}

inline void switch_to(worker *w, fiber *from, fiber *to, bool free_from) {
  jump(w, from, to, to->ctx, free_from ? nullptr : &from->ctx);
}
// Parks thread t (running on fiber self) and resumes parked thread r.
inline void park_and_resume(worker *w, block_impl *b, fiber *self, unsigned t, unsigned r) {
  jump(w, self, static_cast<fiber *>(b->parked[r]), b->sp[r], &b->sp[t]);
}
// Parks thread t and starts a fresh fiber (which runs the next thread not yet started).
inline void park_and_start(worker *w, block_impl *b, fiber *self, unsigned t, fiber *f) {
  jump(w, self, f, f->ctx, &b->sp[t]);
}
// The running thread has returned: its fiber goes back to the pool, parked thread r resumes.
inline void finish_and_resume(worker *w, block_impl *b, unsigned r) {
  jump(w, cur(w), static_cast<fiber *>(b->parked[r]), b->sp[r], nullptr);
}
// Loads the top of a parked thread's stack into the cache ahead of its resumption.
inline void prefetch_parked(block_impl *b, unsigned r) {
  const char *p = static_cast<const char *>(b->sp[r]);
  __builtin_prefetch(p);
  __builtin_prefetch(p + 144); // the frame that parked (cusim_switch.h steps over 128 bytes)
  __builtin_prefetch(p + 208);
}

void fiber_start(worker *w) {
  after_resume(w, cur(w));
  fiber_entry_common(w);
}
#if defined(CUSIM_USE_BOOST_CONTEXT)
void fcontext_entry(bctx::transfer_t tr) {
  *static_cast<ctx_t *>(tr.data) = tr.fctx;
  fiber_start(tl_worker);
}
#endif

fiber *new_fiber(worker *w) {
  fiber *f;
  if (!w->pool.empty()) {
    f = w->pool.back();
    w->pool.pop_back();
    // The next fiber this worker hands out is the pool's new top (nothing is released while a
    // block's threads park at their first barrier, which is when fibers are taken one after
    // another): its stack's top lines (the fresh context, then block_loop's and the kernel's
    // frames) are brought in for writing now, the fiber after it for reading, so that neither
    // is a cache (and TLB) miss in the middle of a thread's first barrier. Without this, the
    // store of the fresh context below was three quarters of new_fiber's time.
    size_t n = w->pool.size();
    if (n >= 1) {
      const char *top = w->pool[n - 1]->top;
      __builtin_prefetch(top - 16, 1);
      __builtin_prefetch(top - 80, 1);
      __builtin_prefetch(top - 144, 1);
      __builtin_prefetch(top - 208, 1);
      if (n >= 2) __builtin_prefetch(w->pool[n - 2]);
    }
  } else {
    f = new_stack_fiber();
  }
  f->ctx = make_ctx(f->top, f->stack_size - f->top_offset);
#if defined(CUSIM_TSAN)
  if (w->sched_tsan == nullptr) w->sched_tsan = __tsan_create_fiber(0);
  f->tsan_fiber = w->sched_tsan;
#endif
  return f;
}
#endif

void fiber_entry_common(worker *w) {
  block *b = &w->blk;
  b->loop(b); // never returns: the fiber is left by a switch
  std::abort();
}

// ---- helpers ------------------------------------------------------------------------------------

inline void set_thread_idx(block_impl *b, unsigned t) {
  detail::thread_ctx &c = cusim_tls;
  c.tid = t;
  if (b->one_d) { // no divisions on the common path: they cost more than the fiber switch
    c.thread_idx.x = t;
    c.thread_idx.y = 0;
    c.thread_idx.z = 0;
    return;
  }
  c.thread_idx = b->tidx[t];
}

uint3 thread_of(block_impl *b, unsigned t) {
  unsigned r = t / b->dim_x;
  return uint3{t - r * b->dim_x, r % b->dim_y, r / b->dim_y};
}

std::string fmt3(uint3 v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "(%u,%u,%u)", v.x, v.y, v.z);
  return buf;
}

std::string where(block_impl *b) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "kernel '%s' (launched at %s:%d), block %s", b->k->name,
                base_name(b->k->file), b->k->line, fmt3(b->idx).c_str());
  return buf;
}

inline void ready_push(block_impl *b, unsigned t) {
  b->ready[b->ready_tail] = t;
  b->ready_tail = b->ready_tail + 1 == b->ready_cap ? 0 : b->ready_tail + 1;
  // (its state stays st_at_barrier or st_at_warp until it runs: nothing needs to tell them apart)
}
inline unsigned ready_pop(block_impl *b) {
  unsigned t = b->ready[b->ready_head];
  b->ready_head = b->ready_head + 1 == b->ready_cap ? 0 : b->ready_head + 1;
  return t;
}

// Every thread of the block reached the same __syncthreads(): all become ready, in thread order.
__attribute__((noinline)) void release_all(block_impl *b) {
  b->bar_arrived = 0;
  b->bar_gen++;
  b->order_gen++;
  // Nothing else can be ready (every thread is at this barrier): the ring restarts at 0.
  std::memcpy(b->ready, b->iota.data(), b->nthreads * sizeof(unsigned));
  b->ready_head = 0;
  b->ready_tail = b->nthreads;
}

inline unsigned lanes_in_warp(block_impl *b, unsigned warp) {
  unsigned n = b->nthreads - warp * 32;
  return n >= 32 ? 0xffffffffu : ((1u << n) - 1u);
}

// The frames of an abandoned block are never unwound: what they allocated (message strings) is
// not a leak of the program's. Called first on every failure path; undone on the worker's stack.
void begin_failure(worker *w) {
#if defined(CUSIM_ASAN)
  if (!w->lsan_off) {
    __lsan_disable();
    w->lsan_off = true;
  }
#else
  (void)w;
#endif
}

// Ends the block with an execution error: the first error of a launch is printed and becomes
// the launch's result; parked threads are dropped; the worker takes no more blocks.
[[noreturn]] void abort_block(block_impl *b, cudaError_t err, const std::string &message) {
  worker *w = b->w;
  begin_failure(w);
  launch_exec *ex = b->exec;
  {
    std::lock_guard<std::mutex> lock(ex->mu);
    if (!ex->failed.load()) {
      if (!message.empty()) print_message("cusim: error: ", message.c_str());
      note_error_task(message.c_str());
      ex->err = err;
      ex->failed.store(true);
    }
  }
  fiber *self = cur(w);
  for (unsigned t = 0; t < b->nthreads; ++t) {
    uint8_t s = b->state[t];
    if ((s == st_at_barrier || s == st_at_warp || s == st_ready || s == st_at_mask ||
         s == st_parked) &&
        b->parked[t] != self && b->parked[t] != nullptr && t != cusim_tls.tid) {
      release_fiber(w, static_cast<fiber *>(b->parked[t]));
    }
    b->parked[t] = nullptr;
  }
  b->ready_head = b->ready_tail = 0;
  cusim_tls.blk = nullptr;
  switch_to(w, self, &w->native, true);
  std::abort();
}

// Formats a message and ends the block with err. Cold and out of line: the barrier functions that
// call it stay small, so a parked thread's frames take little cache.
[[noreturn]] __attribute__((cold, noinline, format(printf, 3, 4))) void
fail(block_impl *b, cudaError_t err, const char *fmt, ...) {
  begin_failure(b->w);
  char buf[2048];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  abort_block(b, err, buf);
}

// Nothing can run and the block is not finished: explain who waits for what.
[[noreturn]] void stuck(block_impl *b) {
  begin_failure(b->w);
  // Threads parked in a libcu++ wait (a cuda::barrier phase that cannot complete, a pipeline stage
  // never committed): a GPU hangs there.
  for (unsigned t = 0; t < b->nthreads; ++t) {
    if (b->state[t] != st_parked) continue;
    unsigned same = 0, returned = 0;
    for (unsigned u = 0; u < b->nthreads; ++u) {
      if (b->state[u] == st_parked && b->park_key[u] == b->park_key[t]) same++;
      if (u < b->next && b->state[u] == st_running) returned++; // (nothing runs now)
    }
    char buf[1024];
    std::snprintf(buf, sizeof buf,
                  "deadlock in %s: thread %s waits in %s at %s, and no thread that could let it "
                  "go on is running (%u thread(s) wait there, %u returned; a GPU would hang)",
                  where(b).c_str(), fmt3(thread_of(b, t)).c_str(), b->park_what[t],
                  place(b->park_file[t], b->park_line[t]).c_str(), same, returned);
    abort_block(b, cudaErrorLaunchTimeout, buf);
  }
  std::string msg;
  unsigned waiting_bar = 0, exited = 0, first_exited = ~0u, first_bar = ~0u;
  for (unsigned t = 0; t < b->nthreads; ++t) {
    if (b->state[t] == st_at_barrier) {
      waiting_bar++;
      if (first_bar == ~0u) first_bar = t;
    } else if (t < b->next && b->state[t] == st_running) { // nothing runs now: it returned
      exited++;
      if (first_exited == ~0u) first_exited = t;
    }
  }
  // A warp function whose mask names lanes that exited or wait at __syncthreads.
  for (unsigned wi = 0; wi * 32 < b->nthreads; ++wi) {
    warp_state &ws = b->warps[wi];
    if (!ws.arrived) continue;
    unsigned lane = (unsigned)__builtin_ctz(ws.arrived);
    unsigned need = ws.mask[lane];
    unsigned missing = need & ~ws.arrived;
    char buf[1024];
    unsigned m = (unsigned)__builtin_ctz(missing ? missing : 1u);
    unsigned mt = wi * 32 + m;
    const char *why = (mt < b->next && b->state[mt] == st_running) ? "has exited"
                      : b->state[mt] == st_at_barrier              ? "waits at __syncthreads()"
                                                                   : "never arrives";
    std::snprintf(buf, sizeof buf,
                  "deadlock in %s: thread %s waits in %s at %s with mask 0x%08x, but lane %u "
                  "(thread %s) %s "
                  "(%u of the mask's lanes missing)",
                  where(b).c_str(), fmt3(thread_of(b, wi * 32 + lane)).c_str(), ws.what[lane],
                  place(ws.file[lane], ws.line[lane]).c_str(), need, m,
                  fmt3(thread_of(b, mt)).c_str(), why, (unsigned)__builtin_popcount(missing));
    abort_block(b, cudaErrorLaunchTimeout, buf);
  }
  if (waiting_bar > 0) {
    char buf[1024];
    std::snprintf(buf, sizeof buf,
                  "barrier divergence in %s: %u thread(s) wait at __syncthreads() at %s (first: "
                  "thread %s), but "
                  "%u thread(s) exited without reaching it (first: thread %s)",
                  where(b).c_str(), waiting_bar, place(b->bar_file, b->bar_line).c_str(),
                  fmt3(thread_of(b, first_bar)).c_str(), exited,
                  first_exited == ~0u ? "?" : fmt3(thread_of(b, first_exited)).c_str());
    abort_block(b, cudaErrorSynchronizationError, buf);
  }
  abort_block(b, cudaErrorLaunchTimeout, "deadlock in " + where(b));
}

// A thread reached __syncthreads() at file:line while others wait at the barrier that bar_file and
// bar_line name: the same barrier (the file named by another string) or a divergence.
__attribute__((cold, noinline)) void barrier_mismatch(block_impl *b, unsigned t, const char *file,
                                                      int line) {
  if (b->bar_line == line && std::strcmp(b->bar_file, file) == 0) return;
  begin_failure(b->w);
  fail(b, cudaErrorSynchronizationError,
       "barrier divergence in %s: thread %s reached __syncthreads() at %s while thread %s waits at "
       "__syncthreads() at %s (all threads of a block must reach the same barrier)",
       where(b).c_str(), fmt3(thread_of(b, t)).c_str(), place(file, line).c_str(),
       fmt3(thread_of(b, b->bar_first)).c_str(), place(b->bar_file, b->bar_line).c_str());
}

// __activemask() is a rendezvous: a lane that calls it waits until every thread of the block has
// started and none can run (each has returned or waits somewhere); then the lanes of a warp that
// wait in __activemask() called from the same place get the mask of those lanes. That is the set
// a GPU reports: the lanes that took the same path to that call (those that took another branch
// wait elsewhere or have exited). Lanes running one after another could not see it otherwise.
// Returns whether some lanes were made ready.
__attribute__((noinline)) bool resolve_activemask(block_impl *b) {
  bool any = false;
  for (unsigned wi = 0; wi * 32 < b->nthreads; ++wi) {
    warp_state &ws = b->warps[wi];
    unsigned pending = ws.am_waiting;
    while (pending) {
      const void *site = ws.am_site[__builtin_ctz(pending)];
      unsigned group = 0;
      for (unsigned m = pending; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        if (ws.am_site[l] == site) group |= 1u << l;
      }
      for (unsigned m = group; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        ws.am_out[l] = group;
        ready_push(b, wi * 32 + l);
      }
      pending &= ~group;
      any = true;
    }
    ws.am_waiting = 0;
  }
  return any;
}

#if defined(CUSIM_USE_UCONTEXT)
// Nothing is ready to run: start the next thread on a fresh fiber, or report a deadlock.
__attribute__((noinline)) void park_slow(block_impl *b, unsigned t, fiber *self) {
  if (b->next < b->nthreads) {
    park_and_start(b->w, b, self, t, new_fiber(b->w));
  } else if (resolve_activemask(b)) {
    unsigned r = ready_pop(b);
    if (r != t) park_and_resume(b->w, b, self, t, r);
  } else {
    stuck(b);
  }
}
#endif

#if !defined(CUSIM_USE_UCONTEXT)
// park_slow's choice without the switch: the fiber to leave for (a fresh one for the next thread,
// or a thread __activemask() made ready) and its context in *ctx; nullptr when thread t itself
// goes on. The switch stays in wait(), so that every thread of a barrier parks from the same
// call site: resuming one then returns where the return-stack predictor expects (a thread that
// parked from park_slow's own switch made its first resume, and its way back, mispredict).
__attribute__((noinline)) fiber *park_slow_target(block_impl *b, unsigned t, ctx_t *ctx) {
  if (b->next < b->nthreads) {
    fiber *f = new_fiber(b->w);
    *ctx = f->ctx;
    return f;
  }
  if (resolve_activemask(b)) {
    unsigned r = ready_pop(b);
    if (r == t) return nullptr;
    *ctx = b->sp[r];
    return static_cast<fiber *>(b->parked[r]);
  }
  stuck(b);
}
#endif

// The current thread (t, in state st_at_barrier or st_at_warp, counted in waiting) stops here
// until the scheduler resumes it. Inlined into the barrier functions: this is the hot path of
// every barrier crossing, so it touches as little as it can.
__attribute__((always_inline)) inline void wait(block_impl *b, unsigned t) {
  worker *w = b->w;
  fiber *self = cur(w);
  b->parked[t] = self;
  unsigned head = b->ready_head;
#if !defined(CUSIM_USE_UCONTEXT)
  fiber *to;
  ctx_t to_ctx;
  if (__builtin_expect(head != b->ready_tail, 1)) {
    unsigned r = b->ready[head];
    head = head + 1 == b->ready_cap ? 0 : head + 1;
    b->ready_head = head;
    if (head != b->ready_tail) prefetch_parked(b, b->ready[head]);
    to = r != t ? static_cast<fiber *>(b->parked[r]) : nullptr;
    to_ctx = b->sp[r];
  } else {
    to = park_slow_target(b, t, &to_ctx);
  }
  if (to != nullptr) jump(w, self, to, to_ctx, &b->sp[t]);
#else
  if (__builtin_expect(head != b->ready_tail, 1)) {
    unsigned r = b->ready[head];
    head = head + 1 == b->ready_cap ? 0 : head + 1;
    b->ready_head = head;
    if (r != t) {
      if (head != b->ready_tail) prefetch_parked(b, b->ready[head]);
      park_and_resume(w, b, self, t, r);
    }
  } else {
    park_slow(b, t, self);
  }
#endif
  b->waiting--;
  b->state[t] = st_running;
  set_thread_idx(b, t);
}

void refill_shared(worker *w) {
  for (unsigned id : w->sites_used) {
    std::memset(w->sites[id], 0xFF, w->site_sizes[id]);
  }
  if (w->dyn_size) std::memset(w->dyn, 0xFF, w->dyn_size);
}

// Sets up the worker's next block of the running launch; false when there is none.
bool start_block(worker *w) {
  launch_exec *ex = w->exec;
  if (ex->failed.load(std::memory_order_relaxed)) return false;
  uint64_t i = ex->next.fetch_add(1, std::memory_order_relaxed);
  if (i >= ex->total) return false;
  block_impl *b = &w->blk;
  kernel_base *k = ex->k;
  uint64_t gx = k->grid.x, gy = k->grid.y;
  b->idx.x = (unsigned)(i % gx);
  b->idx.y = (unsigned)((i / gx) % gy);
  b->idx.z = (unsigned)(i / (gx * gy));
  cusim_tls.block_idx = b->idx;
  cusim_tls.blk = b;
  itls.on = true;
  itls.fast = checker_fast_ok();
  itls.nthreads = b->nthreads;
  itls.gid1_base =
      (i + 1) * (uint64_t)b->nthreads < UINT32_MAX ? (uint32_t)(i * b->nthreads + 1) : 0;
  itls.bar_gen = &b->order_gen;
  itls.warp_gen = b->warp_gen.data();
  if (__builtin_expect(prof_on, 0)) profile_block_begin();
  b->next = 0;
  b->next_idx = uint3{0, 0, 0};
  b->waiting = 0;
  cusim_tls.thread_idx = uint3{0, 0, 0};
  b->ready_head = b->ready_tail = 0;
  b->bar_arrived = 0;
  unsigned nwarps = (b->nthreads + 31) / 32;
  for (unsigned wi = 0; wi < nwarps; ++wi) {
    b->warps[wi].arrived = 0;
    b->warps[wi].am_waiting = 0;
  }
  std::memset(b->state, st_running, b->nthreads);
  recycle_retired(w);
  refill_shared(w);
  async_block_begin(b->nthreads);
#if defined(CUSIM_TSAN)
  for (unsigned t = 0; t < b->nthreads; ++t) b->tsan_threads[t] = nullptr;
#endif
  return true;
}

// ---- worker pool --------------------------------------------------------------------------------

struct shared_site {
  size_t size;
  size_t align;
};
std::mutex sites_mu;
std::vector<shared_site> &sites() {
  static std::vector<shared_site> *v = new std::vector<shared_site>;
  return *v;
}

// Shared memory comes from the memory checker's arena when it is on (so that its accesses are
// checked), else from the heap. nullptr when out of memory.
void *shared_alloc(size_t size, size_t align) {
  if (void *p = arena_alloc(size, true)) return p;
  void *p = nullptr;
  if (posix_memalign(&p, align, size ? size : 1) != 0) return nullptr;
  return p;
}
void shared_free(void *p, size_t size) {
  (void)size;
  if (!arena_free(p)) std::free(p);
}

void run_launch_on(worker *w, launch_exec *ex) {
  tl_worker = w;
  install_crash_handler();
  kernel_base *k = ex->k;
  block_impl *b = &w->blk;
  w->exec = ex;
  b->w = w;
  b->k = k;
  b->exec = ex;
  b->nthreads = ex->nthreads;
  b->dim_x = k->block_dim.x;
  b->dim_y = k->block_dim.y;
  b->one_d = (k->block_dim.y == 1 && k->block_dim.z == 1) ? 1u : 0u;
  // The kernel_item is the most derived object; block_loop casts item back to it, so pass the
  // address of the complete object.
  b->item = dynamic_cast<void *>(k);
  b->loop = k->loop;
  unsigned nwarps = (b->nthreads + 31) / 32;
  // __syncthreads() runs inline in uninstrumented programs (cusim_device.h) where the switch is the
  // built-in one and no sanitizer needs to hear of each switch.
#if defined(CUSIM_USE_UCONTEXT) || defined(CUSIM_USE_BOOST_CONTEXT) || defined(CUSIM_ASAN) ||      \
    defined(CUSIM_TSAN)
  b->fast_barrier = 0;
#else
  b->fast_barrier = 1;
#endif
  b->ready_cap = b->nthreads + 1;
  b->ready_v.assign(b->ready_cap, 0);
  b->ready = b->ready_v.data();
  if (b->iota.size() != b->nthreads) {
    b->iota.resize(b->nthreads);
    for (unsigned t = 0; t < b->nthreads; ++t) b->iota[t] = t;
  }
  b->parked_v.assign(b->nthreads, nullptr);
  b->parked = b->parked_v.data();
  b->sp_v.assign(b->nthreads, nullptr);
  b->sp = b->sp_v.data();
  if (!b->one_d) {
    b->tidx_v.resize(b->nthreads);
    b->tidx = b->tidx_v.data();
    for (unsigned t = 0; t < b->nthreads; ++t) b->tidx[t] = thread_of(b, t);
  }
  b->state_v.assign(b->nthreads, st_running);
  b->park_key.assign(b->nthreads, nullptr);
  b->park_what.assign(b->nthreads, nullptr);
  b->park_file.assign(b->nthreads, nullptr);
  b->park_line.assign(b->nthreads, 0);
  b->state = b->state_v.data();
  if (b->warps.size() < nwarps) b->warps.resize(nwarps);
  b->warp_gen.assign(nwarps, 0);
#if defined(CUSIM_TSAN)
  b->tsan_threads.assign(b->nthreads, nullptr);
  if (w->tsan_idle.size() < b->nthreads) w->tsan_idle.resize(b->nthreads, nullptr);
  b->warp_sync.assign(nwarps, 0);
  // Worker 0 runs on whichever thread runs the launch (the host's, or the stream progress
  // thread): its own fiber is that thread's, learnt anew at each launch (a stale one made TSan
  // wire one thread state into two threads: "CHECK failed: tsan_rtl_proc.cpp:47").
  w->native.tsan_fiber = __tsan_get_current_fiber();
#endif
#if defined(CUSIM_ASAN)
  w->native.asan_bottom = nullptr; // that thread's stack, learnt again at the first switch
#endif
  detail::thread_ctx &c = cusim_tls;
  c.block_dim = k->block_dim;
  c.grid_dim = k->grid;
  w->dyn_size = k->shared_bytes;
  w->dyn = w->dyn_size ? shared_alloc(w->dyn_size, 16) : nullptr;
  c.shared_dynamic = w->dyn;
  w->static_shared = 0;
  c.shared_sites = w->sites.data();
  c.shared_sites_n = (unsigned)w->sites.size();
  if (start_block(w)) {
    w->blk.cur_fiber = &w->native;
    switch_to(w, &w->native, new_fiber(w), false);
  }
  // Back on the worker's own stack: this worker has no more blocks of the launch.
  recycle_retired(w);
#if defined(CUSIM_ASAN)
  if (w->lsan_off) {
    __lsan_enable();
    w->lsan_off = false;
  }
#endif
  for (unsigned id : w->sites_used) {
    shared_free(w->sites[id], w->site_sizes[id]);
    w->sites[id] = nullptr;
  }
  w->sites_used.clear();
  if (w->dyn) shared_free(w->dyn, w->dyn_size);
  w->dyn = nullptr;
  w->dyn_size = 0;
  c.shared_dynamic = nullptr;
  c.blk = nullptr;
  w->exec = nullptr;
  if (__builtin_expect(prof_on, 0)) profile_worker_done(w->static_shared);
  checker_worker_done();
  if (ex->grid) grid_worker_done(ex->grid);
}

unsigned configured_workers() {
  static unsigned n = [] {
    unsigned v = std::thread::hardware_concurrency();
    if (const char *e = std::getenv("CUSIM_THREADS")) {
      long x = std::strtol(e, nullptr, 10);
      if (x > 0 && x <= 1024) v = (unsigned)x;
    }
    return v ? v : 1u;
  }();
  return n;
}

class pool {
public:
  explicit pool(unsigned n) : workers_(n) {
    for (unsigned i = 0; i < n; ++i) {
      workers_[i] = new worker;
      workers_[i]->index = i;
    }
    for (unsigned i = 1; i < n; ++i) std::thread([this, i] { loop(i); }).detach();
  }
  // Runs ex on at most `nworkers` workers; a cooperative launch asks for one per block, and the
  // pool grows to that (the workers of an ordinary launch stay configured_workers()).
  void run(launch_exec *ex, unsigned nworkers) {
    unsigned helpers =
        (unsigned)std::min<uint64_t>(nworkers - 1, ex->total > 0 ? ex->total - 1 : 0);
    {
      std::lock_guard<std::mutex> lock(mu_);
#if defined(CUSIM_TSAN)
      if (ex->grid != nullptr) // every block resident: room for all its fibers (tsan_keep)
        for (worker *w : workers_) tsan_drain(w);
#endif
      while (workers_.size() <= helpers) {
        unsigned i = (unsigned)workers_.size();
        workers_.push_back(new worker);
        workers_.back()->index = i;
        std::thread([this, i] { loop(i); }).detach();
      }
      job_ = ex;
      gen_++;
      helpers_ = helpers;
      active_ = helpers;
    }
    if (helpers) cv_.notify_all();
    run_launch_on(workers_[0], ex);
    std::unique_lock<std::mutex> lock(mu_);
    done_.wait(lock, [this] { return active_ == 0; });
    job_ = nullptr;
  }

private:
  void loop(unsigned i) {
    uint64_t seen = 0;
    for (;;) {
      launch_exec *ex;
      worker *w;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return gen_ != seen; });
        seen = gen_;
        if (i > helpers_) continue;
        ex = job_;
        w = workers_[i];
      }
      run_launch_on(w, ex);
      std::lock_guard<std::mutex> lock(mu_);
      if (--active_ == 0) done_.notify_all();
    }
  }
  std::vector<worker *> workers_;
  std::mutex mu_;
  std::condition_variable cv_, done_;
  launch_exec *job_ = nullptr;
  uint64_t gen_ = 0;
  unsigned helpers_ = 0;
  unsigned active_ = 0;
};

pool &the_pool() {
  static pool *p = new pool(configured_workers()); // never destroyed: its threads outlive main
  return *p;
}

} // namespace

int worker_count() {
  return (int)configured_workers();
}

cudaError_t run_kernel(kernel_base *k) {
  launch_exec ex;
  checker_note_off();
  checker_launch_begin();
  profile_launch_begin(k);
  static std::atomic<uint64_t> launches{0};
  ex.gridid = ++launches;
  ex.k = k;
  ex.total = (uint64_t)k->grid.x * k->grid.y * k->grid.z;
  ex.nthreads = k->block_dim.x * k->block_dim.y * k->block_dim.z;
  unsigned workers = configured_workers();
  if (k->cooperative) { // every block resident at once: one worker each (cooperative.cpp)
    ex.grid = grid_barrier_create(ex.total, &ex.failed);
    workers = (unsigned)ex.total;
  }
  the_pool().run(&ex, workers);
  if (ex.grid) grid_barrier_destroy(ex.grid);
  if (__builtin_expect(prof_on, 0)) profile_launch_end();
  return ex.failed.load() ? ex.err : cudaSuccess;
}

void race_failed(const char *message) {
  checker_stopped(message);
  block_impl *b = static_cast<block_impl *>(cusim_tls.blk);
  fail(b, cudaErrorLaunchFailure, "%s in %s", message, where(b).c_str());
}
void bounds_failed(const char *message) {
  checker_stopped(message);
  block_impl *b = static_cast<block_impl *>(cusim_tls.blk);
  fail(b, cudaErrorIllegalAddress, "%s in %s", message, where(b).c_str());
}

grid_barrier *running_grid() {
  worker *w = tl_worker;
  return w != nullptr && w->exec != nullptr && cusim_tls.blk != nullptr ? w->exec->grid : nullptr;
}

void fail_running_block(cudaError_t err, const char *message) {
  begin_failure(tl_worker); // before the message's string: the block's stack is abandoned (LSan)
  abort_block(&tl_worker->blk, err, message);
}

bool current_context(uintptr_t fault, running_context *out) {
  worker *w = tl_worker;
  if (w == nullptr || w->exec == nullptr || cusim_tls.blk == nullptr) return false;
  block_impl *b = &w->blk;
  out->kernel = b->k->name;
  out->file = b->k->file;
  out->line = b->k->line;
  out->block = b->idx;
  out->thread = cusim_tls.thread_idx;
  fiber *f = cur(w);
  if (f != nullptr && f != &w->native && f->map != nullptr) {
    uintptr_t lo = (uintptr_t)f->map;
    out->in_guard = fault >= lo && fault < (uintptr_t)f->stack_lo;
    out->stack_size = f->stack_size;
  }
  return true;
}

} // namespace rt

// ---- entry points used by cusim_device.h
// ----------------------------------------------------------

namespace detail {
using rt::block_impl;

void run_ready(block *bb) {
  block_impl *b = static_cast<block_impl *>(bb);
  rt::worker *w = b->w;
  unsigned r = rt::ready_pop(b);
  if (b->ready_head != b->ready_tail) rt::prefetch_parked(b, b->ready[b->ready_head]);
  rt::finish_and_resume(w, b, r);
  std::abort();
}

// The slow paths of __syncthreads() inline (sync_block_inline, cusim_device.h).
void barrier_mismatch_at(block *bb, const char *file, int line) {
  rt::barrier_mismatch(static_cast<block_impl *>(bb), cusim_tls.tid, file, line);
  std::abort();
}
void barrier_all_here(block *bb) {
  block_impl *b = static_cast<block_impl *>(bb);
  if (b->waiting != b->nthreads) rt::stuck(b);
  rt::release_all(b);
}
void *barrier_park_slow(block *bb, unsigned t, void **ctx) {
#if !defined(CUSIM_USE_UCONTEXT)
  return rt::park_slow_target(static_cast<block_impl *>(bb), t, ctx);
#else
  (void)bb, (void)t, (void)ctx;
  std::abort(); // fast_barrier is 0 with this switch
#endif
}
void release_dying(block *bb) {
  block_impl *b = static_cast<block_impl *>(bb);
  rt::release_fiber(b->w, static_cast<rt::fiber *>(b->dying_fiber));
  b->dying_fiber = nullptr;
}

void block_end(block *bb) {
  block_impl *b = static_cast<block_impl *>(bb);
  rt::worker *w = b->w;
  if (b->waiting != 0) {
    if (rt::resolve_activemask(b)) run_ready(b);
    rt::stuck(b);
  }
#if defined(CUSIM_TSAN)
  __tsan_acquire(&b->end_sync);
#endif
  rt::async_block_end();
  rt::checker_block_end();
  if (rt::start_block(w)) return;
  rt::switch_to(w, cur(w), &w->native, true);
  std::abort();
}

void tsan_thread_enter(block *bb, unsigned t) {
#if defined(CUSIM_TSAN)
  block_impl *b = static_cast<block_impl *>(bb);
  if (b->tsan_threads[t] == nullptr) {
    void *&kept = b->w->tsan_idle[t]; // an earlier block's thread t on this worker (tsan_keep)
    if (kept != nullptr) {
      b->tsan_threads[t] = kept;
      kept = nullptr;
      rt::tsan_unkeep();
    } else {
      b->tsan_threads[t] = __tsan_create_fiber(0);
    }
    // Reports then name the CUDA thread: "Thread T5 'thread (3,0,0) of block (0,0,0)'".
    char name[64];
    uint3 ti = rt::thread_of(b, t);
    std::snprintf(name, sizeof name, "thread (%u,%u,%u) of block (%u,%u,%u)", ti.x, ti.y, ti.z,
                  b->idx.x, b->idx.y, b->idx.z);
    __tsan_set_fiber_name(b->tsan_threads[t], name);
  }
  __tsan_switch_to_fiber(b->tsan_threads[t], 0);
#else
  (void)bb;
  (void)t;
#endif
}
void tsan_thread_leave(block *bb, unsigned t) {
#if defined(CUSIM_TSAN)
  block_impl *b = static_cast<block_impl *>(bb);
  __tsan_release(&b->end_sync);
  __tsan_switch_to_fiber(cur(b->w)->tsan_fiber, __tsan_switch_to_fiber_no_sync);
  void *&kept = b->w->tsan_idle[t];
  if (kept == nullptr && rt::tsan_keep())
    kept = b->tsan_threads[t]; // for thread t of the worker's next block (tsan_keep)
  else
    __tsan_destroy_fiber(b->tsan_threads[t]);
  b->tsan_threads[t] = nullptr;
  // The next thread must not run on this stack: TSan would take its frames, at the addresses the
  // finished thread's had, for memory the two threads share without synchronisation (a false
  // race, e.g. on the `expected` of an atomicCAS loop). So the loop goes on, on a fresh fiber,
  // and this one is retired until the block ends.
  rt::worker *w = b->w;
  rt::switch_to(w, cur(w), rt::new_fiber(w), true);
  std::abort();
#else
  (void)bb;
  (void)t;
#endif
}

unsigned register_shared_site(size_t size, size_t align) {
  std::lock_guard<std::mutex> lock(rt::sites_mu);
  rt::sites().push_back(rt::shared_site{size, align});
  return (unsigned)rt::sites().size() - 1;
}

void *shared_site_alloc(unsigned id) {
  rt::worker *w = rt::tl_worker;
  rt::shared_site s;
  size_t nsites;
  {
    std::lock_guard<std::mutex> lock(rt::sites_mu);
    s = rt::sites()[id];
    nsites = rt::sites().size();
  }
  if (w == nullptr || w->exec == nullptr) {
    std::fprintf(stderr, "cusim: fatal: a __shared__ variable used outside a kernel\n");
    std::abort();
  }
#if defined(CUSIM_TSAN)
  // Runs on the TSan fiber of the CUDA thread that first uses the variable: the allocation and its
  // 0xFF fill are the simulator's, not that thread's writes (others would race with them).
  AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
#endif
  if (w->sites.size() < nsites) w->sites.resize(nsites, nullptr);
  if (w->site_sizes.size() < nsites) w->site_sizes.resize(nsites, 0);
  w->site_sizes[id] = s.size;
  void *p = rt::shared_alloc(s.size, std::max<size_t>(s.align, 16));
  if (p == nullptr) {
    std::fprintf(stderr, "cusim: fatal: out of memory for shared memory\n");
    std::abort();
  }
  std::memset(p, 0xFF, s.size);
  w->sites[id] = p;
  w->sites_used.push_back(id);
  w->static_shared += s.size;
  cusim_tls.shared_sites = w->sites.data();
  cusim_tls.shared_sites_n = (unsigned)w->sites.size();
#if defined(CUSIM_TSAN)
  AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
#endif
  rt::block_impl *b = &w->blk;
  size_t limit = 48 * 1024;
  if (w->static_shared > limit) {
    char buf[512];
    std::snprintf(
        buf, sizeof buf,
        "%s uses %zu bytes of static __shared__ memory; the limit is %zu bytes per block (49152)",
        rt::where(b).c_str(), w->static_shared, limit);
    rt::abort_block(b, cudaErrorLaunchOutOfResources, buf);
  }
  return p;
}
} // namespace detail

namespace dev {
using rt::block_impl;

int syncthreads(int kind, int predicate, const char *file, int line) {
  block_impl *b = static_cast<block_impl *>(cusim_tls.blk);
  if (b == nullptr) return predicate; // called outside a kernel: nothing to wait for
  unsigned t = cusim_tls.tid;
  if (b->bar_arrived == 0) {
    b->bar_file = file;
    b->bar_line = line;
    b->bar_kind = kind;
    b->bar_first = t;
    b->bar_acc[b->bar_gen & 1] = kind == 2 ? 1 : 0;
  } else if (__builtin_expect(b->bar_line != line || b->bar_file != file, 0)) {
    rt::barrier_mismatch(b, t, file, line);
  }
  unsigned gen = b->bar_gen;
  int &acc = b->bar_acc[gen & 1];
  if (kind == 1)
    acc += predicate;
  else if (kind == 2)
    acc &= predicate;
  else if (kind == 3)
    acc |= predicate;
  b->state[t] = rt::st_at_barrier;
#if defined(CUSIM_TSAN)
  __tsan_release(&b->bar_sync);
  __tsan_switch_to_fiber(cur(b->w)->tsan_fiber, __tsan_switch_to_fiber_no_sync);
#endif
  b->bar_arrived++;
  b->waiting++;
  // Every thread started, and every one not returned is here: release (or, if some returned
  // without reaching this barrier, report the divergence).
  if (b->next == b->nthreads && b->bar_arrived == b->waiting) {
    if (b->waiting != b->nthreads) rt::stuck(b);
    rt::release_all(b);
  }
  rt::wait(b, t);
#if defined(CUSIM_TSAN)
  __tsan_switch_to_fiber(b->tsan_threads[t], __tsan_switch_to_fiber_no_sync);
  __tsan_acquire(&b->bar_sync);
#endif
  return b->bar_acc[gen & 1];
}

void sync_block(const char *file, int line) {
  block_impl *b = static_cast<block_impl *>(cusim_tls.blk);
  if (b == nullptr) return; // called outside a kernel: nothing to wait for
  unsigned t = cusim_tls.tid;
  detail::barrier_note_place(b, t, file, line);
  b->state[t] = rt::st_at_barrier;
#if defined(CUSIM_TSAN)
  __tsan_release(&b->bar_sync);
  __tsan_switch_to_fiber(cur(b->w)->tsan_fiber, __tsan_switch_to_fiber_no_sync);
#endif
  unsigned arrived = ++b->bar_arrived;
  unsigned waiting = ++b->waiting;
  if (__builtin_expect(arrived == waiting, 0) && b->next == b->nthreads) {
    if (waiting != b->nthreads) rt::stuck(b);
    rt::release_all(b);
  }
  rt::wait(b, t);
#if defined(CUSIM_TSAN)
  __tsan_switch_to_fiber(b->tsan_threads[t], __tsan_switch_to_fiber_no_sync);
  __tsan_acquire(&b->bar_sync);
#endif
}

unsigned live_lanes(unsigned mask) {
  block_impl *b = static_cast<block_impl *>(cusim_tls.blk);
  if (b == nullptr) return mask;
  return mask & rt::lanes_in_warp(b, cusim_tls.tid >> 5);
}

unsigned activemask() {
  block_impl *b = static_cast<block_impl *>(cusim_tls.blk);
  if (b == nullptr) return 1u;
  // Where it was called from: __activemask() and coalesced_threads() are always inlined, so this is
  // in the learner's code, and two branches that call it get different sites.
  const void *site = __builtin_return_address(0);
  unsigned t = cusim_tls.tid;
  unsigned wi = t >> 5, lane = t & 31;
  rt::warp_state &ws = b->warps[wi];
  ws.am_waiting |= 1u << lane;
  ws.am_site[lane] = site;
  b->state[t] = rt::st_at_mask;
  b->waiting++;
#if defined(CUSIM_TSAN)
  __tsan_release(&b->warp_sync[wi]);
  __tsan_switch_to_fiber(cur(b->w)->tsan_fiber, __tsan_switch_to_fiber_no_sync);
#endif
  rt::wait(b, t); // see resolve_activemask
#if defined(CUSIM_TSAN)
  __tsan_switch_to_fiber(b->tsan_threads[t], __tsan_switch_to_fiber_no_sync);
  __tsan_acquire(&b->warp_sync[wi]);
#endif
  return ws.am_out[lane];
}

uint64_t warp_op(int kind, unsigned mask, uint64_t value, unsigned src_lane, const char *what,
                 const char *file, int line) {
  block_impl *b = static_cast<block_impl *>(cusim_tls.blk);
  if (b == nullptr) return value;
  unsigned t = cusim_tls.tid;
  unsigned wi = t >> 5, lane = t & 31, bit = 1u << lane;
  rt::warp_state &ws = b->warps[wi];
  unsigned need = mask & rt::lanes_in_warp(b, wi);
  if (!(need & bit)) {
    rt::begin_failure(b->w);
    rt::fail(b, cudaErrorIllegalInstruction,
             "in %s: thread %s (lane %u) calls %s at %s with mask 0x%08x, which does not "
             "include its own lane",
             rt::where(b).c_str(), rt::fmt3(rt::thread_of(b, t)).c_str(), lane, what,
             rt::place(file, line).c_str(), mask);
  }
  ws.val[lane] = value;
  ws.src[lane] = (uint8_t)(src_lane & 31);
  ws.mask[lane] = need;
  ws.op[lane] = (uint8_t)kind;
  ws.what[lane] = what;
  ws.file[lane] = file;
  ws.line[lane] = line;
  ws.arrived |= bit;
  b->state[t] = rt::st_at_warp;
  b->waiting++;
#if defined(CUSIM_TSAN)
  __tsan_release(&b->warp_sync[wi]);
  __tsan_switch_to_fiber(cur(b->w)->tsan_fiber, __tsan_switch_to_fiber_no_sync);
#endif
  if ((ws.arrived & need) == need) {
    for (unsigned m = need; m; m &= m - 1) {
      unsigned l = (unsigned)__builtin_ctz(m);
      if (ws.mask[l] != need || ws.op[l] != kind) {
        rt::begin_failure(b->w);
        rt::fail(b, cudaErrorIllegalInstruction,
                 "warp divergence in %s: thread %s calls %s at %s with mask 0x%08x while thread "
                 "%s calls %s at "
                 "%s with mask 0x%08x (the lanes of a mask must call the same warp function)",
                 rt::where(b).c_str(), rt::fmt3(rt::thread_of(b, t)).c_str(), what,
                 rt::place(file, line).c_str(), need,
                 rt::fmt3(rt::thread_of(b, wi * 32 + l)).c_str(), ws.what[l],
                 rt::place(ws.file[l], ws.line[l]).c_str(), ws.mask[l]);
      }
    }
    switch (kind) {
    case op_shfl:
      for (unsigned m = need; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        unsigned s = ws.src[l];
        // In the segment but not a lane of the mask: PTX leaves the value undefined.
        if (!(need >> s & 1u)) {
          rt::begin_failure(b->w);
          bool exists = rt::lanes_in_warp(b, wi) >> s & 1u;
          rt::fail(b, cudaErrorIllegalInstruction,
                   "in %s: thread %s (lane %u) reads lane %u with %s at %s, but lane %u %s "
                   "(mask 0x%08x): a GPU gives an undefined value there (shuffle only from lanes "
                   "of the mask)",
                   rt::where(b).c_str(), rt::fmt3(rt::thread_of(b, wi * 32 + l)).c_str(), l, s,
                   ws.what[l], rt::place(ws.file[l], ws.line[l]).c_str(), s,
                   exists ? "is not in the mask" : "has no thread in this block", need);
        }
        ws.out[l] = ws.val[s];
      }
      break;
    case op_ballot: {
      uint64_t bits = 0;
      for (unsigned m = need; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        if (ws.val[l]) bits |= 1u << l;
      }
      for (unsigned m = need; m; m &= m - 1) ws.out[__builtin_ctz(m)] = bits;
      break;
    }
    case op_match_any:
      for (unsigned m = need; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t same = 0;
        for (unsigned m2 = need; m2; m2 &= m2 - 1) {
          unsigned l2 = (unsigned)__builtin_ctz(m2);
          if (ws.val[l2] == ws.val[l]) same |= 1u << l2;
        }
        ws.out[l] = same;
      }
      break;
    case op_reduce_add:
    case op_reduce_min:
    case op_reduce_max:
    case op_reduce_umin:
    case op_reduce_umax:
    case op_reduce_and:
    case op_reduce_or:
    case op_reduce_xor: { // redux.sync: the 32-bit values of the mask's lanes, combined
      unsigned first = (unsigned)__builtin_ctz(need);
      uint32_t acc = (uint32_t)ws.val[first];
      for (unsigned m = need & (need - 1); m; m &= m - 1) {
        uint32_t v = (uint32_t)ws.val[__builtin_ctz(m)];
        switch (kind) {
        case op_reduce_add:
          acc += v;
          break;
        case op_reduce_min:
          acc = (int32_t)v < (int32_t)acc ? v : acc;
          break;
        case op_reduce_max:
          acc = (int32_t)v > (int32_t)acc ? v : acc;
          break;
        case op_reduce_umin:
          acc = v < acc ? v : acc;
          break;
        case op_reduce_umax:
          acc = v > acc ? v : acc;
          break;
        case op_reduce_and:
          acc &= v;
          break;
        case op_reduce_or:
          acc |= v;
          break;
        default:
          acc ^= v;
          break;
        }
      }
      for (unsigned m = need; m; m &= m - 1) ws.out[__builtin_ctz(m)] = acc;
      break;
    }
    case op_match_all: {
      bool all = true;
      unsigned first = (unsigned)__builtin_ctz(need);
      for (unsigned m = need; m; m &= m - 1)
        if (ws.val[__builtin_ctz(m)] != ws.val[first]) all = false;
      for (unsigned m = need; m; m &= m - 1) ws.out[__builtin_ctz(m)] = all ? need : 0;
      break;
    }
    default:
      for (unsigned m = need; m; m &= m - 1) ws.out[__builtin_ctz(m)] = 0;
      break;
    }
    ws.arrived &= ~need;
    b->warp_gen[wi]++;
    for (unsigned m = need; m; m &= m - 1) rt::ready_push(b, wi * 32 + (unsigned)__builtin_ctz(m));
  }
  rt::wait(b, t);
#if defined(CUSIM_TSAN)
  __tsan_switch_to_fiber(b->tsan_threads[t], __tsan_switch_to_fiber_no_sync);
  __tsan_acquire(&b->warp_sync[wi]);
#endif
  return ws.out[lane];
}

void assert_check(const char *expr, const char *file, int line, const char *function) {
  block_impl *b = static_cast<block_impl *>(cusim_tls.blk);
  if (b == nullptr) __assert_fail(expr, file, (unsigned)line, function);
  rt::begin_failure(b->w);
  uint3 bi = cusim_tls.block_idx, ti = cusim_tls.thread_idx;
  char text[1024]; // a GPU's own wording, wrapped like the simulator's lines
  std::snprintf(text, sizeof text,
                "%s:%d: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.",
                rt::base_name(file), line, function, bi.x, bi.y, bi.z, ti.x, ti.y, ti.z, expr);
  rt::print_message("", text);
  rt::abort_block(b, cudaErrorAssert, "device-side assert failed in " + rt::where(b));
}

void trap(const char *file, int line) {
  block_impl *b = static_cast<block_impl *>(cusim_tls.blk);
  if (b == nullptr) std::abort();
  char buf[512];
  std::snprintf(buf, sizeof buf, "__trap() at %s in %s, thread %s", rt::place(file, line).c_str(),
                rt::where(b).c_str(), rt::fmt3(cusim_tls.thread_idx).c_str());
  rt::abort_block(b, cudaErrorLaunchFailure, buf);
}

long long clock64() {
#if defined(__x86_64__) || defined(__i386__)
  return (long long)__builtin_ia32_rdtsc();
#else
  return (long long)std::chrono::steady_clock::now().time_since_epoch().count();
#endif
}

// The special registers of inline PTX that the runtime knows (cusim_ptx.h). %smid is the worker
// that runs the block (the device reports one multiprocessor per worker), %nsmid their number;
// %nwarpid the warps an SM holds (maxThreadsPerMultiProcessor / 32); %gridid the launch's number;
// %globaltimer nanoseconds of a monotonic clock.
uint64_t special_register(int kind) {
  const unsigned sms = (unsigned)rt::worker_count();
  rt::worker *w = rt::tl_worker;
  switch (kind) {
  case sreg_smid:
    return w != nullptr ? w->index % sms : 0;
  case sreg_nsmid:
    return sms;
  case sreg_nwarpid:
    return 2048 / 32;
  case sreg_gridid:
    return w != nullptr && w->exec != nullptr ? w->exec->gridid : 0;
  case sreg_globaltimer:
    return (uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  case sreg_dynamic_smem_size:
    return w != nullptr ? w->dyn_size : 0;
  }
  return 0;
}
// ---- libcu++ waits: cuda::barrier, pipelines (include/cusim_async.h) --------------------------
// A thread that waits for a barrier's phase parks here until a thread of its block completes the
// phase (release_waiters with the same key). The header checks its own condition again after
// each wake-up, so a release that does not concern a thread only costs it a turn.
void park_on(const void *key, const char *what, const char *file, int line) {
  block_impl *b = static_cast<block_impl *>(cusim_tls.blk);
  if (b == nullptr) not_simulated(what, file, line); // host code: nothing could release it
  unsigned t = cusim_tls.tid;
  b->park_key[t] = key;
  b->park_what[t] = what;
  b->park_file[t] = file;
  b->park_line[t] = line;
  b->state[t] = rt::st_parked;
  b->waiting++;
#if defined(CUSIM_TSAN)
  __tsan_release(&b->bar_sync);
  __tsan_switch_to_fiber(cur(b->w)->tsan_fiber, __tsan_switch_to_fiber_no_sync);
#endif
  rt::wait(b, t);
#if defined(CUSIM_TSAN)
  __tsan_switch_to_fiber(b->tsan_threads[t], __tsan_switch_to_fiber_no_sync);
  __tsan_acquire(&b->bar_sync);
#endif
}

// Makes every thread parked on key ready, and orders, for the memory checker, what the block's
// threads did before with what they do after (as a __syncthreads() does: order_gen).
void release_waiters(const void *key) {
  block_impl *b = static_cast<block_impl *>(cusim_tls.blk);
  if (b == nullptr) return;
  b->order_gen++;
  for (unsigned t = 0; t < b->nthreads; ++t)
    if (b->state[t] == rt::st_parked && b->park_key[t] == key) {
      b->state[t] = rt::st_ready;
      rt::ready_push(b, t);
    }
}

void order_point() {
  if (block_impl *b = static_cast<block_impl *>(cusim_tls.blk)) b->order_gen++;
}

unsigned long long block_serial() {
  block_impl *b = static_cast<block_impl *>(cusim_tls.blk);
  if (b == nullptr) return 0;
  uint3 g = cusim_tls.grid_dim, i = cusim_tls.block_idx;
  return 1 + i.x + (unsigned long long)g.x * (i.y + (unsigned long long)g.y * i.z);
}

void not_simulated(const char *what, const char *file, int line) {
  std::string msg = rt::place(file, line) + ": " + what +
                    " is not simulated (the simulator stops here rather than guess)";
  block_impl *b = static_cast<block_impl *>(cusim_tls.blk);
  if (b == nullptr) {
    rt::print_message("cusim: error: ", msg.c_str());
    std::exit(1);
  }
  rt::fail_running_block(cudaErrorNotSupported, msg.c_str());
}

void misuse(const char *what, const char *file, int line) {
  std::string msg = rt::place(file, line) + ": " + what;
  block_impl *b = static_cast<block_impl *>(cusim_tls.blk);
  if (b == nullptr) {
    rt::print_message("cusim: error: ", msg.c_str());
    std::exit(1);
  }
  msg += " in " + rt::where(b) + ", thread " + rt::fmt3(cusim_tls.thread_idx);
  rt::fail_running_block(cudaErrorLaunchFailure, msg.c_str());
}

} // namespace dev
} // namespace cusim

#if !defined(CUSIM_USE_UCONTEXT) && !defined(CUSIM_USE_BOOST_CONTEXT)
// A fresh fiber's first code (called by cusim_fiber_trampoline).
extern "C" __attribute__((visibility("hidden"), used)) void cusim_fiber_start() {
  cusim::rt::fiber_start(cusim::rt::tl_worker);
}
#endif
