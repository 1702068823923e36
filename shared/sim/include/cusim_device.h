/* cusim_device.h: the C++ half of the simulator's cuda_runtime.h: built-in variables, the launch
   machinery the rewriter's output calls (see docs/architecture.md, "The simulator contract"),
   barriers, warp functions, atomics and the C++ overloads of the runtime API.

   How a launch runs: ::cusim::launch checks the configuration and the pointer arguments, copies
   the arguments into a queue entry and enqueues it on its stream. When it runs (when the host
   waits for that stream), each worker thread takes blocks; a block's threads run one after another
   as plain calls of the kernel inside block_loop (below, a template, so that the kernel inlines
   into the loop). Only a thread that reaches a barrier or a warp function is parked on a fiber;
   the loop then goes on, on a fresh fiber, with the next thread. */
#ifndef CUSIM_DEVICE_H
#define CUSIM_DEVICE_H
#pragma GCC system_header

#ifndef __cplusplus
#error "cusim_device.h is C++ only"
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>

#include "cuda_runtime_api.h"

#if defined(__SANITIZE_THREAD__)
#define CUSIM_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CUSIM_TSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define CUSIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CUSIM_ASAN 1
#endif
#endif

namespace cusim {
namespace detail {

struct block;

/* Per worker thread: the built-in variables of the CUDA thread running now, and where to find
   its block. Trivially constructible and declared __thread, so reading threadIdx.x is one load
   (no TLS wrapper call). */
struct thread_ctx {
  uint3 thread_idx;
  uint3 block_idx;
  uint3 block_dim; /* dim3 in CUDA; uint3 here so the struct is trivial (required by __thread) */
  uint3 grid_dim;
  unsigned tid; /* linear thread index in the block */
  block *blk;
  void **shared_sites;     /* static __shared__ variables of this launch, by site id */
  unsigned shared_sites_n; /* entries in shared_sites */
  void *shared_dynamic;    /* extern __shared__ arena */
};

} // namespace detail
} // namespace cusim
/* In a program, cusim_tls lies at a fixed offset from the thread pointer (libcusim is linked
   statically): the local-exec model reads it with no load of its offset, which keeps a parked
   thread's way back to its block short. Code for a shared object (-fPIC) takes the default
   model, and so does a kernel that NVRTC compiles (into one). A file may choose its own model first
   (the checker's callbacks, runtime/instrument.cpp). */
#if defined(CUSIM_TLS_MODEL)
#elif defined(__CUDACC_RTC__) || (defined(__PIC__) && !defined(__PIE__))
#define CUSIM_TLS_MODEL
#else
#define CUSIM_TLS_MODEL __attribute__((tls_model("local-exec")))
#endif
extern __thread cusim::detail::thread_ctx cusim_tls CUSIM_TLS_MODEL;
namespace cusim {
namespace detail {
#if defined(CUSIM_TSAN)
/* A copy read without TSan instrumentation (see the built-in variables below). */
__attribute__((no_sanitize("thread"), noinline)) inline thread_ctx cusim_tls_ref() {
  return ::cusim_tls;
}
__attribute__((no_sanitize("thread"), noinline)) inline uint3 tls_thread_idx() {
  return ::cusim_tls.thread_idx;
}
__attribute__((no_sanitize("thread"), noinline)) inline uint3 tls_block_idx() {
  return ::cusim_tls.block_idx;
}
__attribute__((no_sanitize("thread"), noinline)) inline uint3 tls_block_dim() {
  return ::cusim_tls.block_dim;
}
__attribute__((no_sanitize("thread"), noinline)) inline uint3 tls_grid_dim() {
  return ::cusim_tls.grid_dim;
}
#else
inline thread_ctx &cusim_tls_ref() {
  return ::cusim_tls;
}
#endif

/* The scheduler's state in an instrumented program. A program built with the memory checker
   (CUSIM_CHECKED: cusim.cmake and nvcc-sim define it where they preprocess a .cu file they
   instrument) has every load and store instrumented, those of the thread loop and of
   __syncthreads() below too: each is a call into the checker, which returns at once for memory
   outside its arena, but a call all the same (12 of the 15 per element of y = a*x + y, and most
   of a barrier crossing's). On x86-64 they go through inline asm, which the instrumentation does
   not see; the kernel's own accesses are instrumented as before. Elsewhere, and in uninstrumented
   programs, they are plain accesses. */
#if defined(CUSIM_CHECKED) && defined(__x86_64__) && !defined(CUSIM_TSAN)
#define CUSIM_RAW_STATE 1
template <class T> __attribute__((always_inline)) inline T raw_get(const T &x) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 4 || sizeof(T) == 8, "a register-sized field");
  T v;
  __asm__ volatile("mov %1, %0" : "=r"(v) : "m"(x));
  return v;
}
template <class T, class U> __attribute__((always_inline)) inline void raw_set(T &x, U v) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 4 || sizeof(T) == 8, "a register-sized field");
  __asm__ volatile("mov %1, %0" : "=m"(x) : "r"((T)v));
}
/* A kernel argument of a register's size (a pointer, an integer, a float, an enum) read from
   block_loop's copy by one load the instrumentation does not see, for each simulated thread: the
   copy is this frame's own, outside the checker's arena, so each read was a call into the checker
   that returned at its first compare (4 of the 7 calls per thread of y = a*x + y). The kernel
   still receives its own copy of each argument, as before. Any other argument is passed as the
   frame's copy, as before. */
template <class T> __attribute__((always_inline)) inline decltype(auto) raw_arg(T &a) {
  constexpr size_t n = sizeof(T);
  constexpr bool scalar = std::is_arithmetic_v<T> || std::is_pointer_v<T> || std::is_enum_v<T>;
  if constexpr (scalar && (n == 1 || n == 2 || n == 4 || n == 8)) {
    using bits = std::conditional_t<
        n == 1, uint8_t,
        std::conditional_t<n == 2, uint16_t, std::conditional_t<n == 4, uint32_t, uint64_t>>>;
    bits v;
    __asm__("mov %1, %0" : "=r"(v) : "m"(a));
    return __builtin_bit_cast(std::remove_cv_t<T>, v);
  } else {
    return (T &)a;
  }
}
#define CUSIM_GET(x) ::cusim::detail::raw_get(x)
#define CUSIM_SET(x, v) ::cusim::detail::raw_set(x, v)
#else
#define CUSIM_GET(x) (x)
#define CUSIM_SET(x, v) ((x) = (v))
#endif

/* clang before 16 turns a copy it does not split into loads and stores (a float4, any struct of
   16 bytes or more: cell[i] = in[i]) into a call of the C library's memcpy, which the checker
   does not see: the write was lost, and a later read of it looked uninitialized. In an
   instrumented file, memcpy, memmove and memset are the checker's (__tsan_memcpy, ..., as
   clang 16 and later call them): a symbol alias of this object file only, so neither the
   runtime's own copies nor other files' are affected. */
#if defined(CUSIM_CHECKED) && defined(__clang__) && !defined(CUSIM_TSAN)
__asm__(".set memcpy, __tsan_memcpy\n\t.set memmove, __tsan_memmove\n\t.set memset, __tsan_memset");
#endif

/* The checker never checks host code (its callbacks return at once outside a block), so in a
   program built with it the rewriter marks each host-only function of the program's own files
   no_sanitize("thread") where it can do so without keeping an inline call from being inlined
   (shared/sim/rewriter/host_code.c): a CPU reference loop then runs at its uninstrumented speed.
   It does so only where it finds this declaration: never under ThreadSanitizer, which checks
   host code itself. */
#if defined(CUSIM_CHECKED) && !defined(CUSIM_TSAN)
void cusim_host_code_is_not_checked();
#endif

/* The part of a block's state that block_loop reads; the runtime keeps the rest. */
struct block {
  unsigned next;       /* next thread never started */
  unsigned nthreads;   /* threads per block */
  unsigned ready_head; /* parked threads ready to resume: ring [ready_head, ready_tail) */
  unsigned ready_tail;
  unsigned dim_x, dim_y; /* block dimensions, to turn a linear index into threadIdx */
  unsigned one_d;        /* blockDim.y == blockDim.z == 1 */
  uint3 next_idx;        /* threadIdx of thread `next` (blocks that are not 1-D) */
  unsigned
      waiting; /* threads parked at a barrier or ready to resume (the rest of those started have
                  returned, but one: the thread running now); kept by the slow paths only */
  void *item;  /* the launch (kernel_item<...>) */
  void (*loop)(block *);
  /* __syncthreads() without a call into the runtime (sync_block_inline, below), where the runtime
     allows it (fast_barrier): the barrier's state, the ring of ready threads and the parked
     threads' contexts. The runtime keeps them; the slow paths are its functions. */
  unsigned fast_barrier = 0;      /* 1: the built-in x86-64 switch, no sanitizer in the runtime */
  unsigned bar_arrived = 0;       /* threads at the current __syncthreads() */
  const char *bar_file = nullptr; /* where the first of them called it */
  int bar_line = 0;
  int bar_kind = 0; /* 0: __syncthreads(); 1-3: _count, _and, _or */
  unsigned bar_first = 0;
  unsigned ready_cap = 1;    /* entries of the ring */
  unsigned *ready = nullptr; /* the ring of ready threads (ready_head, ready_tail) */
  unsigned char *state =
      nullptr;             /* per thread: running, at a barrier, ... (the runtime's thread_state) */
  void **parked = nullptr; /* per thread: its fiber while it is parked */
  void **sp = nullptr;     /* per thread: its saved context while it is parked */
  uint3 *tidx = nullptr;   /* per thread: threadIdx (blocks that are not 1-D) */
  void *cur_fiber = nullptr;   /* the fiber running now */
  void *dying_fiber = nullptr; /* a finished fiber, released by the side it switched to */
};

/* A queued launch; the runtime runs it and deletes it. */
struct kernel_base {
  virtual ~kernel_base() {}
  void (*loop)(block *) = nullptr;
  const char *name = nullptr;
  const char *file = nullptr;
  int line = 0;
  dim3 grid, block_dim;
  size_t shared_bytes = 0;
  cudaStream_t stream = nullptr;
  bool cooperative = false; /* launched by cudaLaunchCooperativeKernel */
};

/* Runtime entry points (libcusim). */
[[noreturn]] void run_ready(block *b); /* the current thread returned; resume a parked one */
void block_end(block *b);              /* all threads started, none ready: next block or leave */
void tsan_thread_enter(block *b, unsigned t);
void tsan_thread_leave(block *b, unsigned t);
int launch_begin(const dim3 &grid, const dim3 &block_dim, size_t shared, cudaStream_t stream,
                 const char *name, const char *file, int line, const void *kernel = nullptr);
bool check_pointer_arg(const void *p, int index, const char *name, const char *file, int line);
void launch_submit(kernel_base *k, bool pointers_ok);
unsigned register_shared_site(size_t size, size_t align);
void *shared_site_alloc(unsigned id);
void register_symbol(const void *addr, size_t size);
#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
void use_per_thread_default_stream();
inline const bool per_thread_default_stream = (use_per_thread_default_stream(), true);
#endif
#if defined(CUSIM_UNCHECKED_BUILD)
/* nvcc-sim --unchecked: the note on what goes unreported names the option (instrument.cpp). */
inline const bool unchecked_build = (cusim_unchecked_build(), true);
#endif

/* flatten: the kernel inlines into the thread loop. no-gcse (GCC): RTL global CSE would keep
   values such as cusim_tls's offset in registers across __syncthreads(), and so spill them to the
   stack; a resumed thread then waits for its own stack to load them before it can park again,
   a chain of loads through every crossing (measured: 7.7 ns a crossing with it, 5.2 without). */
#if defined(__GNUC__) && !defined(__clang__) && !defined(CUSIM_TSAN)
#define CUSIM_FLATTEN __attribute__((flatten, optimize("no-gcse")))
#elif defined(__GNUC__) && !defined(CUSIM_TSAN)
#define CUSIM_FLATTEN __attribute__((flatten))
#elif defined(CUSIM_TSAN)
/* Under ThreadSanitizer the loop is not instrumented: it runs on the worker's scheduling fiber,
   which all its stacks share, and must leave no frame on that fiber's shadow stack when its stack
   is retired (scheduler.cpp, tsan_keep). The kernel is not inlined into it (the compiler does not
   inline across a difference in sanitizer attributes), so the kernel stays instrumented. */
#define CUSIM_FLATTEN __attribute__((no_sanitize("thread")))
#else
#define CUSIM_FLATTEN
#endif

/* The per-block thread loop: runs on a fiber. Its state lives in the block (a parked fiber may
   hold this frame), so any fiber can carry on from where another stopped. */
template <class Item> [[noreturn]] CUSIM_FLATTEN void block_loop(block *b) {
  Item *item = static_cast<Item *>(b->item);
  /* fixed for the launch (block_end sets up blocks of the same launch) */
  const unsigned n = b->nthreads, one_d = b->one_d, dim_x = b->dim_x, dim_y = b->dim_y;
#if defined(CUSIM_RAW_STATE)
  /* The arguments' bytes, copied into this frame as CUDA copies an argument's bytes to the device
     (no copy constructor runs): reading them there is no call into the checker. */
  using Args = decltype(item->args);
  alignas(Args) unsigned char arg_bytes[sizeof(Args)];
  std::memcpy(arg_bytes, static_cast<const void *>(&item->args), sizeof(Args));
  Args &args = *std::launder(reinterpret_cast<Args *>(arg_bytes));
#else
  auto &args = item->args;
#endif
  for (;;) {
    if (CUSIM_GET(b->ready_head) != CUSIM_GET(b->ready_tail)) run_ready(b);
    unsigned t = CUSIM_GET(b->next);
    if (t >= n) {
      block_end(b); /* returns with the next block of this worker set up in *b */
      continue;
    }
    CUSIM_SET(b->next, t + 1);
    thread_ctx &c = ::cusim_tls;
    if (one_d) {
      CUSIM_SET(c.thread_idx.x, t); /* y and z are 0 for the whole block */
    } else {
      /* Threads start in order: step the index instead of dividing, field by field as CUSIM_GET
         and CUSIM_SET read and write them (a uint3 copied whole was a call of __tsan_read_range
         and two of __tsan_write_range a thread: 9% of a 2-D stencil). */
      uint3 i = {CUSIM_GET(b->next_idx.x), CUSIM_GET(b->next_idx.y), CUSIM_GET(b->next_idx.z)};
      CUSIM_SET(c.thread_idx.x, i.x);
      CUSIM_SET(c.thread_idx.y, i.y);
      CUSIM_SET(c.thread_idx.z, i.z);
      if (++i.x == dim_x) {
        i.x = 0;
        if (++i.y == dim_y) {
          i.y = 0;
          ++i.z;
        }
      }
      CUSIM_SET(b->next_idx.x, i.x);
      CUSIM_SET(b->next_idx.y, i.y);
      CUSIM_SET(b->next_idx.z, i.z);
    }
    CUSIM_SET(c.tid, t);
#if defined(CUSIM_TSAN)
    tsan_thread_enter(b, t);
#endif
#if defined(CUSIM_RAW_STATE)
    std::apply([&](auto &...a) { item->fn(raw_arg(a)...); }, args);
#else
    std::apply(item->fn, args);
#endif
#if defined(CUSIM_TSAN)
    tsan_thread_leave(b, t);
#endif
  }
}

template <class F, class Tuple> struct kernel_item final : kernel_base {
  F fn;
  Tuple args;
  template <class... A>
  kernel_item(F f, A &&...a) : fn(std::move(f)), args(std::forward<A>(a)...) {}
};

template <class T>
inline bool check_arg(const T &value, int index, const char *name, const char *file, int line) {
  using D = std::decay_t<T>;
  if constexpr (std::is_pointer_v<D>) {
    using P = std::remove_cv_t<std::remove_pointer_t<D>>;
    if constexpr (std::is_object_v<P> || std::is_void_v<P>) {
      if (value != nullptr) return check_pointer_arg((const void *)value, index, name, file, line);
    }
  }
  (void)value;
  (void)index;
  (void)name;
  (void)file;
  (void)line;
  return true;
}

} // namespace detail

/* The launch configuration of <<<grid, block, shared, stream>>>. */
struct config {
  dim3 grid;
  dim3 block;
  size_t shared;
  cudaStream_t stream;
  const void *kernel; /* the kernel's address where the launch knows it (its bounds), or null */
};
inline struct config config(dim3 grid, dim3 block, size_t shared = 0, cudaStream_t stream = 0) {
  struct config c;
  c.grid = grid;
  c.block = block;
  c.shared = shared;
  c.stream = stream;
  c.kernel = nullptr;
  return c;
}

/* Stands for a literal 0 or NULL argument: converts to any pointer or arithmetic parameter. */
struct null_arg {
  template <class T> operator T() const { return T(); }
};

namespace detail {
/* Kernel arguments as CUDA passes them (Programming Guide, "__global__ Function Argument
   Processing"): the launch copies each argument on the host (kernel_item's tuple: copy
   constructor there, destructor there once the launch is done), and the device gets the bytes;
   no constructor or destructor runs on the device, let alone once per thread.

   A C++ call of a by-value parameter of class type runs its copy constructor and destructor, so
   each simulated thread cannot call the kernel the ordinary way when an argument's type has
   either. The Itanium C++ ABI (x86-64, AArch64) passes such a parameter by the address of a
   temporary the caller owns and destroys: calling the kernel through its address, retyped with
   `const void *` for those parameters, hands it a fresh byte copy and runs nothing. That needs
   the kernel's address: kernel_pointer finds it where the launch names one function (or a
   template with every argument given, or a pointer); elsewhere (an overloaded or deduced template
   kernel) the plain call runs, with a warning. */
template <class T>
inline constexpr bool passed_by_address =
    !std::is_trivially_copy_constructible_v<T> || !std::is_trivially_destructible_v<T>;
struct kernel_probe {};
template <class... P> inline auto kernel_pointer(void (*f)(P...), kernel_probe) -> void (*)(P...) {
  return f;
}
/* A probe typed by a launch's arguments: a template kernel named without its arguments resolves to
   the instance whose parameters are exactly those types (P is deduced from the probe alone), or
   to nothing (a conversion between them), and the launch then goes by the name. */
template <class... P> struct kernel_probe_for {};
template <class... P>
inline auto kernel_pointer(void (*f)(P...), kernel_probe_for<P...>) -> void (*)(P...) {
  return f;
}
template <class P, bool = passed_by_address<P>> struct param_bytes {};
template <class P> struct param_bytes<P, true> { alignas(P) unsigned char bytes[sizeof(P)]; };
template <class P> using abi_param = std::conditional_t<passed_by_address<P>, const void *, P>;
template <class P, class A> inline abi_param<P> pass_param(A &arg, param_bytes<P> &copy) {
  if constexpr (passed_by_address<P>) {
    std::memcpy(copy.bytes, static_cast<const void *>(std::addressof(arg)), sizeof(P));
    return copy.bytes;
  } else {
    (void)copy;
    return arg;
  }
}
template <class P, class A>
inline constexpr bool param_fits = !passed_by_address<P> || std::is_same_v<P, std::decay_t<A>>;
template <class F, class... A> struct kernel_fits : std::false_type {};
template <class... P, class... A>
struct kernel_fits<void (*)(P...), A...>
    : std::bool_constant<sizeof...(P) == sizeof...(A) && (param_fits<P, A> && ...)> {};
template <class... P, class... A, std::size_t... I>
inline void call_bytewise(void (*f)(P...), std::index_sequence<I...>, A &...arg) {
  std::tuple<param_bytes<P>...> copies;
  using retyped = void (*)(abi_param<P>...);
  retyped g = reinterpret_cast<retyped>(reinterpret_cast<void (*)()>(f));
  g(pass_param<P>(arg, std::get<I>(copies))...);
}
void warn_arguments_copied(); /* libcusim: once per program */
template <class Probe, class Direct, class... A>
inline void call_kernel(Probe probe, Direct direct, A &...arg) {
  if constexpr (!(passed_by_address<std::decay_t<A>> || ...)) {
    (void)probe;
    direct();
  } else if constexpr (std::is_invocable_v<Probe &, kernel_probe>) {
    auto f = probe(kernel_probe{});
    if constexpr (kernel_fits<decltype(f), A...>::value) {
      call_bytewise(f, std::index_sequence_for<A...>{}, arg...);
    } else {
      warn_arguments_copied();
      direct();
    }
  } else {
    warn_arguments_copied();
    direct();
  }
}
} // namespace detail

template <class F, class... A>
void launch(struct config cfg, const char *name, const char *file, int line, F kernel_call,
            A &&...args) {
  if (detail::launch_begin(cfg.grid, cfg.block, cfg.shared, cfg.stream, name, file, line,
                           cfg.kernel) != 0)
    return;
  bool ok = true;
  int index = 0;
  ((ok = detail::check_arg(args, ++index, name, file, line) && ok), ...);
  using Item = detail::kernel_item<F, std::tuple<std::decay_t<A>...>>;
  Item *k = new Item(std::move(kernel_call), std::forward<A>(args)...);
  k->loop = &detail::block_loop<Item>;
  k->name = name;
  k->file = file;
  k->line = line;
  k->grid = cfg.grid;
  k->block_dim = cfg.block;
  k->shared_bytes = cfg.shared;
  k->stream = cfg.stream;
  detail::launch_submit(k, ok);
}

/* A launch of a template's instance (k<256><<<...>>>), or of a template kernel with
   __launch_bounds__ named without its arguments (k<<<...>>>(x)): the rewriter passes a probe, and
   the instance is found from the arguments' types, else from the name alone (k<256>, whatever the
   arguments), so that its own bound applies; where neither finds one function (an overload set
   the arguments do not pick exactly), the launch goes by the name. */
template <class Probe> struct probed_config {
  struct config cfg;
  Probe probe;
};
template <class Probe> inline probed_config<Probe> with_probe(struct config c, Probe probe) {
  return probed_config<Probe>{c, probe};
}
template <class Probe, class F, class... A>
void launch(probed_config<Probe> pc, const char *name, const char *file, int line, F kernel_call,
            A &&...args) {
  using typed = detail::kernel_probe_for<std::decay_t<A>...>;
  if constexpr (std::is_invocable_v<Probe &, typed>)
    pc.cfg.kernel = reinterpret_cast<const void *>(pc.probe(typed{}));
  else if constexpr (std::is_invocable_v<Probe &, detail::kernel_probe>)
    pc.cfg.kernel = reinterpret_cast<const void *>(pc.probe(detail::kernel_probe{}));
  launch(pc.cfg, name, file, line, std::move(kernel_call), std::forward<A>(args)...);
}

/* A declaration with __align__(n) passes a site that returns its alignment: a typedef's
 * alignment attribute is lost when the type is a template argument. */
template <class T, class Site> inline std::size_t site_alignment(Site site) {
  if constexpr (std::is_invocable_r_v<std::size_t, Site>)
    return site() > alignof(T) ? site() : alignof(T);
  else
    return alignof(T);
}
/* A static __shared__ variable: one heap object per declaration site and worker, so that
   AddressSanitizer sees overflows; refilled with 0xFF bytes at each block start. */
template <class T, class Site> inline T *shared_var(Site site) {
  static const unsigned id = detail::register_shared_site(sizeof(T), site_alignment<T>(site));
  const detail::thread_ctx &c = detail::cusim_tls_ref();
  if (id < c.shared_sites_n && c.shared_sites[id] != nullptr)
    return static_cast<T *>(c.shared_sites[id]);
  return static_cast<T *>(detail::shared_site_alloc(id));
}
inline void *shared_dynamic() {
  return detail::cusim_tls_ref().shared_dynamic;
}

/* Device-side runtime (libcusim). */
namespace dev {
enum warp_op_kind {
  op_sync = 1,
  op_shfl,
  op_ballot,
  op_match_any,
  op_match_all,
  op_reduce_add, /* __reduce_*_sync (sm_80): the 32-bit values of the mask's lanes combined */
  op_reduce_min,
  op_reduce_max,
  op_reduce_umin,
  op_reduce_umax,
  op_reduce_and,
  op_reduce_or,
  op_reduce_xor
};
int syncthreads(int kind, int predicate, const char *file, int line);
void sync_block(const char *file, int line); /* __syncthreads() */
uint64_t warp_op(int kind, unsigned mask, uint64_t value, unsigned src_lane, const char *what,
                 const char *file, int line);
unsigned activemask();
[[noreturn]] void assert_fail(const char *expr, const char *file, int line, const char *function);
[[noreturn]] void trap(const char *file, int line);
long long clock64();
/* libcu++ waits and asynchronous copies (scheduler.cpp, async_copy.cpp; used by cusim_async.h). */
void park_on(const void *key, const char *what, const char *file, int line);
void release_waiters(const void *key);
void order_point(); /* orders what the block did before with what it does after (the checker) */
unsigned long long block_serial(); /* the running block, 1 + its linear index; 0 in host code */
[[noreturn]] void not_simulated(const char *what, const char *file, int line);
[[noreturn]] void misuse(const char *what, const char *file, int line);
void async_copy(const void *key, unsigned long long batch, void *dst, const void *src, size_t n,
                size_t zfill, const char *file, int line);
void async_wait(const void *key, unsigned long long below); /* this thread, batches < below */
void async_complete_key(const void *key);                   /* every thread's copies of key */
unsigned long long *async_counter(int which); /* per thread: 0 __pipeline_*, 1 cg::memcpy_async */

/* Branch divergence (the profiler, runtime/profile.cpp). The rewriter wraps the condition of
   each if, while, do-while and for in device code: br(site, condition), where site is a static
   record of the condition's file and line. Off (the default), the cost is one load and a
   predictable branch per condition: the flag is read with an asm load, so the memory checker's
   instrumentation does not turn it into a call. */
struct branch_site {
  const char *file;
  int line;
};
void note_branch(const branch_site *site, bool taken);
} // namespace dev
namespace rt {
extern bool prof_on;
} // namespace rt
namespace dev {
inline bool branch_profiling() {
#if defined(__x86_64__)
  unsigned char on;
  __asm__("movb %1, %0" : "=q"(on) : "m"(::cusim::rt::prof_on));
  return __builtin_expect(on != 0, 0);
#else
  return __builtin_expect(__atomic_load_n(&::cusim::rt::prof_on, __ATOMIC_RELAXED), 0);
#endif
}
inline bool br(const branch_site *site, bool taken) {
  if (branch_profiling()) note_branch(site, taken);
  return taken;
}

/* __syncthreads() itself, where nothing instruments the program (built without the memory
   checker or a sanitizer) and the runtime allows it (block::fast_barrier): the runtime's
   sync_block, inline in the kernel, with the switch of cusim_switch.h. A crossing is then no
   call into the runtime, and a thread resumed by one that parked elsewhere (a thread that
   started or ended) returns from nothing the return-stack predictor could miss: a thread's
   start and end cost 22 ns instead of 30 here (docs/results.md). The block comes back in a
   register from the switch and cusim_tls is read at a fixed offset, so the next switch does not
   wait on loads from the stack just resumed. The slow paths (the last thread of a barrier, a
   thread to start, a mismatch) stay in the runtime. */
} // namespace dev
namespace detail {
[[noreturn]] void barrier_mismatch_at(block *b, const char *file, int line);
void barrier_all_here(block *b);
void *barrier_park_slow(block *b, unsigned t, void **ctx);
void release_dying(block *b);
/* The first thread at a __syncthreads() says where it is; every other must be at the same one
   (sync_block_inline and the runtime's sync_block). */
inline void barrier_note_place(block *b, unsigned t, const char *file, int line) {
  if (CUSIM_GET(b->bar_arrived) == 0) {
    CUSIM_SET(b->bar_file, file);
    CUSIM_SET(b->bar_line, line);
    CUSIM_SET(b->bar_kind, 0);
    CUSIM_SET(b->bar_first, t);
  } else if (__builtin_expect(CUSIM_GET(b->bar_line) != line || CUSIM_GET(b->bar_file) != file,
                              0)) {
    barrier_mismatch_at(b, file, line);
  }
}
} // namespace detail
} // namespace cusim
#include "cusim_shift.h" /* shifts as a GPU computes them (issue 27) */
#if defined(__x86_64__) && !defined(CUSIM_TSAN) && !defined(CUSIM_ASAN)
#include "cusim_switch.h"
namespace cusim {
namespace dev {
__attribute__((always_inline)) inline void sync_block_inline(const char *file, int line) {
  detail::block *b = CUSIM_GET(::cusim_tls.blk);
  if (b == nullptr || !CUSIM_GET(b->fast_barrier)) return sync_block(file, line);
  unsigned t = CUSIM_GET(::cusim_tls.tid);
  detail::barrier_note_place(b, t, file, line);
  CUSIM_SET(CUSIM_GET(b->state)[t], 1); /* at a barrier */
  unsigned arrived = CUSIM_GET(b->bar_arrived) + 1;
  CUSIM_SET(b->bar_arrived, arrived);
  unsigned waiting = CUSIM_GET(b->waiting) + 1;
  CUSIM_SET(b->waiting, waiting);
  if (__builtin_expect(arrived == waiting, 0) && CUSIM_GET(b->next) == CUSIM_GET(b->nthreads))
    detail::barrier_all_here(b);
  CUSIM_SET(CUSIM_GET(b->parked)[t], CUSIM_GET(b->cur_fiber));
  unsigned head = CUSIM_GET(b->ready_head);
  void *to, *ctx;
  if (__builtin_expect(head != CUSIM_GET(b->ready_tail), 1)) {
    unsigned *ready = CUSIM_GET(b->ready);
    unsigned r = CUSIM_GET(ready[head]);
    head = head + 1 == CUSIM_GET(b->ready_cap) ? 0 : head + 1;
    CUSIM_SET(b->ready_head, head);
    if (head != CUSIM_GET(b->ready_tail)) { /* the next thread's stack, ahead of its turn */
      const char *p =
          static_cast<const char *>(CUSIM_GET(CUSIM_GET(b->sp)[CUSIM_GET(ready[head])]));
      __builtin_prefetch(p);
      __builtin_prefetch(p + 144);
      __builtin_prefetch(p + 208);
    }
    to = r != t ? CUSIM_GET(CUSIM_GET(b->parked)[r]) : nullptr;
    ctx = CUSIM_GET(CUSIM_GET(b->sp)[r]);
  } else {
    void *slow_ctx; /* (its own variable: ctx, whose address is not taken, stays in a register) */
    to = detail::barrier_park_slow(b, t, &slow_ctx);
    ctx = slow_ctx;
  }
  if (to != nullptr) {
    CUSIM_SET(b->cur_fiber, to);
    b = static_cast<detail::block *>(cusim_switch(CUSIM_GET(b->sp) + t, ctx, b));
    if (__builtin_expect(CUSIM_GET(b->dying_fiber) != nullptr, 0)) detail::release_dying(b);
  }
  CUSIM_SET(b->waiting, CUSIM_GET(b->waiting) - 1);
  CUSIM_SET(CUSIM_GET(b->state)[t], 0); /* running */
  detail::thread_ctx &c = ::cusim_tls;
  CUSIM_SET(c.tid, t);
  if (CUSIM_GET(b->one_d)) {
    CUSIM_SET(c.thread_idx.x, t);
    CUSIM_SET(c.thread_idx.y, 0);
    CUSIM_SET(c.thread_idx.z, 0);
  } else {
    c.thread_idx = b->tidx[t];
  }
}
} // namespace dev
} // namespace cusim
#else
namespace cusim {
namespace dev {
inline void sync_block_inline(const char *file, int line) {
  sync_block(file, line);
}
} // namespace dev
} // namespace cusim
#endif
namespace cusim {
namespace dev {

template <class T> inline uint64_t to_bits(T v) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>,
                "warp shuffles move values of at most 8 bytes");
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  return bits;
}
template <class T> inline T from_bits(uint64_t bits) {
  T v;
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}
inline unsigned lane_id() {
  return detail::cusim_tls_ref().tid & 31u;
}

template <class T>
inline T shfl(const char *file, int line, unsigned mask, T var, int src_lane, int width = 32) {
  unsigned lane = lane_id();
  unsigned w = (unsigned)width;
  unsigned base = lane & ~(w - 1);
  unsigned src = base + ((unsigned)src_lane & (w - 1));
  return from_bits<T>(warp_op(op_shfl, mask, to_bits(var), src, "__shfl_sync", file, line));
}
template <class T>
inline T shfl_up(const char *file, int line, unsigned mask, T var, unsigned delta, int width = 32) {
  unsigned lane = lane_id();
  unsigned w = (unsigned)width;
  unsigned src = (lane & (w - 1)) >= delta ? lane - delta : lane;
  return from_bits<T>(warp_op(op_shfl, mask, to_bits(var), src, "__shfl_up_sync", file, line));
}
template <class T>
inline T shfl_down(const char *file, int line, unsigned mask, T var, unsigned delta,
                   int width = 32) {
  unsigned lane = lane_id();
  unsigned w = (unsigned)width;
  unsigned src = (lane & (w - 1)) + delta < w ? lane + delta : lane;
  return from_bits<T>(warp_op(op_shfl, mask, to_bits(var), src, "__shfl_down_sync", file, line));
}
template <class T>
inline T shfl_xor(const char *file, int line, unsigned mask, T var, int lane_mask, int width = 32) {
  unsigned lane = lane_id();
  unsigned w = (unsigned)width;
  unsigned src = lane ^ (unsigned)lane_mask;
  if (src / w != lane / w || src > 31) src = lane;
  return from_bits<T>(warp_op(op_shfl, mask, to_bits(var), src, "__shfl_xor_sync", file, line));
}
template <class T> inline unsigned match_any(const char *file, int line, unsigned mask, T value) {
  return (unsigned)warp_op(op_match_any, mask, to_bits(value), 0, "__match_any_sync", file, line);
}
template <class T>
inline unsigned match_all(const char *file, int line, unsigned mask, T value, int *pred) {
  unsigned r =
      (unsigned)warp_op(op_match_all, mask, to_bits(value), 0, "__match_all_sync", file, line);
  if (pred) *pred = r != 0;
  return r;
}
/* __reduce_add/min/max_sync of an int or an unsigned, __reduce_and/or/xor_sync of an unsigned. */
inline unsigned reduce_sync(int kind, const char *what, const char *file, int line, unsigned mask,
                            unsigned value) {
  return (unsigned)warp_op(kind, mask, value, 0, what, file, line);
}
inline int reduce_add(const char *file, int line, unsigned mask, int value) {
  return (int)reduce_sync(op_reduce_add, "__reduce_add_sync", file, line, mask, (unsigned)value);
}
inline unsigned reduce_add(const char *file, int line, unsigned mask, unsigned value) {
  return reduce_sync(op_reduce_add, "__reduce_add_sync", file, line, mask, value);
}
inline int reduce_min(const char *file, int line, unsigned mask, int value) {
  return (int)reduce_sync(op_reduce_min, "__reduce_min_sync", file, line, mask, (unsigned)value);
}
inline unsigned reduce_min(const char *file, int line, unsigned mask, unsigned value) {
  return reduce_sync(op_reduce_umin, "__reduce_min_sync", file, line, mask, value);
}
inline int reduce_max(const char *file, int line, unsigned mask, int value) {
  return (int)reduce_sync(op_reduce_max, "__reduce_max_sync", file, line, mask, (unsigned)value);
}
inline unsigned reduce_max(const char *file, int line, unsigned mask, unsigned value) {
  return reduce_sync(op_reduce_umax, "__reduce_max_sync", file, line, mask, value);
}
} // namespace dev
} // namespace cusim

/* Built-in variables. threadIdx, blockIdx, blockDim and gridDim are no macros: every .cu file is
   preprocessed and then rewritten (cusim.cmake, nvcc-sim, NVRTC), and the rewriter puts
   ::cusim::detail::builtin_*() in their place in device code only, so that a host variable,
   parameter or member named gridDim builds, as under nvcc (in a host .cpp file too). The
   simulator's own headers use the CUSIM_BUILTIN_* spellings. */
#if defined(CUSIM_TSAN)
#define CUSIM_BUILTIN_THREAD_IDX (::cusim::detail::tls_thread_idx())
#define CUSIM_BUILTIN_BLOCK_IDX (::cusim::detail::tls_block_idx())
#define CUSIM_BUILTIN_BLOCK_DIM (::cusim::detail::tls_block_dim())
#define CUSIM_BUILTIN_GRID_DIM (::cusim::detail::tls_grid_dim())
#elif defined(CUSIM_RAW_STATE)
#define CUSIM_BUILTIN_THREAD_IDX (::cusim::detail::raw_uint3(::cusim_tls.thread_idx))
#define CUSIM_BUILTIN_BLOCK_IDX (::cusim::detail::raw_uint3(::cusim_tls.block_idx))
#define CUSIM_BUILTIN_BLOCK_DIM (::cusim::detail::raw_uint3(::cusim_tls.block_dim))
#define CUSIM_BUILTIN_GRID_DIM (::cusim::detail::raw_uint3(::cusim_tls.grid_dim))
namespace cusim {
namespace detail {
/* A built-in read by value, with no call into the checker (CUSIM_RAW_STATE). The loads are
   volatile, as the thread loop's stores (CUSIM_SET) are: none is moved past a thread's start. */
__attribute__((always_inline)) inline uint3 raw_uint3(const uint3 &v) {
  /* Each field in a 4-byte load (the thread loop has just stored threadIdx.x in 4 bytes: a wider
     load would wait for it, a store-forwarding stall), but the result assembled in registers and
     stored as 8 + 4 bytes, as the compiler copies it (stores of 4 bytes read back as 8: the same
     stall). Measured on y = a*x + y: 40, then 20, then 17 ns an element. */
  unsigned x, y, z;
  __asm__ volatile("movl %1, %0" : "=r"(x) : "m"(v.x));
  __asm__ volatile("movl %1, %0" : "=r"(y) : "m"(v.y));
  __asm__ volatile("movl %1, %0" : "=r"(z) : "m"(v.z));
  uint64_t xy = x | (uint64_t)y << 32;
  uint3 r;
  std::memcpy(&r, &xy, sizeof xy);
  r.z = z;
  return r;
}
} // namespace detail
} // namespace cusim
#else
#define CUSIM_BUILTIN_THREAD_IDX (::cusim_tls.thread_idx)
#define CUSIM_BUILTIN_BLOCK_IDX (::cusim_tls.block_idx)
#define CUSIM_BUILTIN_BLOCK_DIM (::cusim_tls.block_dim)
#define CUSIM_BUILTIN_GRID_DIM (::cusim_tls.grid_dim)
#endif
namespace cusim {
namespace detail {
/* What the rewriter writes for the built-ins in device code (one load once inlined). */
__attribute__((always_inline)) inline decltype(auto) builtin_thread_idx() {
  return (CUSIM_BUILTIN_THREAD_IDX);
}
__attribute__((always_inline)) inline decltype(auto) builtin_block_idx() {
  return (CUSIM_BUILTIN_BLOCK_IDX);
}
__attribute__((always_inline)) inline decltype(auto) builtin_block_dim() {
  return (CUSIM_BUILTIN_BLOCK_DIM);
}
__attribute__((always_inline)) inline decltype(auto) builtin_grid_dim() {
  return (CUSIM_BUILTIN_GRID_DIM);
}
/* clock() in device code (the rewriter names it): a 32-bit cycle counter, as the GPU's %clock. */
__attribute__((always_inline)) inline long builtin_clock() {
  return (long)(unsigned)::cusim::dev::clock64();
}
} // namespace detail
} // namespace cusim
static constexpr int warpSize = 32;

/* Barriers. */
#define __syncthreads() (::cusim::dev::sync_block_inline(__FILE__, __LINE__))
#define __syncthreads_count(p) (::cusim::dev::syncthreads(1, (p) ? 1 : 0, __FILE__, __LINE__))
#define __syncthreads_and(p) (::cusim::dev::syncthreads(2, (p) ? 1 : 0, __FILE__, __LINE__))
#define __syncthreads_or(p) (::cusim::dev::syncthreads(3, (p) ? 1 : 0, __FILE__, __LINE__))
#define __syncwarp(...)                                                                            \
  ((void)::cusim::dev::warp_op(::cusim::dev::op_sync, ::cusim::dev::syncwarp_mask(__VA_ARGS__), 0, \
                               0, "__syncwarp", __FILE__, __LINE__))
namespace cusim {
namespace dev {
inline unsigned syncwarp_mask(unsigned mask = 0xffffffffu) {
  return mask;
}
} // namespace dev
} // namespace cusim

/* Warp functions. */
#define __shfl_sync(...) (::cusim::dev::shfl(__FILE__, __LINE__, __VA_ARGS__))
#define __shfl_up_sync(...) (::cusim::dev::shfl_up(__FILE__, __LINE__, __VA_ARGS__))
#define __shfl_down_sync(...) (::cusim::dev::shfl_down(__FILE__, __LINE__, __VA_ARGS__))
#define __shfl_xor_sync(...) (::cusim::dev::shfl_xor(__FILE__, __LINE__, __VA_ARGS__))
#define __ballot_sync(mask, p)                                                                     \
  ((unsigned)::cusim::dev::warp_op(::cusim::dev::op_ballot, (mask), (p) ? 1 : 0, 0,                \
                                   "__ballot_sync", __FILE__, __LINE__))
#define __any_sync(mask, p) (__ballot_sync((mask), (p)) != 0u ? 1 : 0)
#define __all_sync(mask, p)                                                                        \
  (::cusim::dev::all_of(::cusim::dev::warp_op(::cusim::dev::op_ballot, (mask), (p) ? 1 : 0, 0,     \
                                              "__all_sync", __FILE__, __LINE__),                   \
                        (mask)))
#define __uni_sync(mask, p) __all_sync(mask, p)
#define __match_any_sync(mask, v) (::cusim::dev::match_any(__FILE__, __LINE__, (mask), (v)))
#define __match_all_sync(mask, v, pred)                                                            \
  (::cusim::dev::match_all(__FILE__, __LINE__, (mask), (v), (pred)))
#define __reduce_add_sync(mask, v) (::cusim::dev::reduce_add(__FILE__, __LINE__, (mask), (v)))
#define __reduce_min_sync(mask, v) (::cusim::dev::reduce_min(__FILE__, __LINE__, (mask), (v)))
#define __reduce_max_sync(mask, v) (::cusim::dev::reduce_max(__FILE__, __LINE__, (mask), (v)))
#define __reduce_and_sync(mask, v)                                                                 \
  (::cusim::dev::reduce_sync(::cusim::dev::op_reduce_and, "__reduce_and_sync", __FILE__, __LINE__, \
                             (mask), (unsigned)(v)))
#define __reduce_or_sync(mask, v)                                                                  \
  (::cusim::dev::reduce_sync(::cusim::dev::op_reduce_or, "__reduce_or_sync", __FILE__, __LINE__,   \
                             (mask), (unsigned)(v)))
#define __reduce_xor_sync(mask, v)                                                                 \
  (::cusim::dev::reduce_sync(::cusim::dev::op_reduce_xor, "__reduce_xor_sync", __FILE__, __LINE__, \
                             (mask), (unsigned)(v)))
namespace cusim {
namespace dev {
/* The ballot's bits are those of the lanes that took part; all_of compares with the mask's live
 * lanes. */
unsigned live_lanes(unsigned mask);
inline int all_of(uint64_t ballot, unsigned mask) {
  return (unsigned)ballot == live_lanes(mask) ? 1 : 0;
}
} // namespace dev
} // namespace cusim
/* A rendezvous on the simulator: the lanes of the warp that called it from the same place (see
   resolve_activemask in scheduler.cpp). Always inlined, so the runtime can tell the places apart.
 */
__attribute__((always_inline)) inline unsigned __activemask() {
  return ::cusim::dev::activemask();
}
inline unsigned __lanemask_lt() {
  return (1u << ::cusim::dev::lane_id()) - 1u;
}

/* Memory fences: blocks run on several host threads, so these are real fences. */
inline void __threadfence() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
inline void __threadfence_block() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
inline void __threadfence_system() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* Misc device functions. */
inline long long clock64() {
  return ::cusim::dev::clock64();
}
/* A conditional node's value, set from a kernel (cusim_graph.h; graphs.cpp keeps it). */
inline void cudaGraphSetConditional(cudaGraphConditionalHandle handle, unsigned int value) {
  cusim_graph_set_conditional(handle, value);
}
inline void __nanosleep(unsigned) {}
#define __trap() (::cusim::dev::trap(__FILE__, __LINE__))
inline void __brkpt() {}
template <class T> inline T __ldg(const T *p) {
  return *p;
}
template <class T> inline T __ldcg(const T *p) {
  return *p;
}
template <class T> inline T __ldca(const T *p) {
  return *p;
}
template <class T> inline T __ldcs(const T *p) {
  return *p;
}
template <class T> inline T __ldlu(const T *p) {
  return *p;
}
template <class T> inline T __ldcv(const T *p) {
  return *p;
}
template <class T> inline void __stcg(T *p, T v) {
  *p = v;
}
template <class T> inline void __stcs(T *p, T v) {
  *p = v;
}
template <class T> inline void __stwb(T *p, T v) {
  *p = v;
}
template <class T> inline void __stwt(T *p, T v) {
  *p = v;
}

/* Atomics: blocks run on several host threads at once, so these are real atomic operations. */
#define CUSIM_ATOMIC_INT(T)                                                                        \
  inline T atomicAdd(T *a, T v) {                                                                  \
    return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST);                                             \
  }                                                                                                \
  inline T atomicSub(T *a, T v) {                                                                  \
    return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST);                                             \
  }                                                                                                \
  inline T atomicExch(T *a, T v) {                                                                 \
    return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                            \
  }                                                                                                \
  inline T atomicAnd(T *a, T v) {                                                                  \
    return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST);                                             \
  }                                                                                                \
  inline T atomicOr(T *a, T v) {                                                                   \
    return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST);                                              \
  }                                                                                                \
  inline T atomicXor(T *a, T v) {                                                                  \
    return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST);                                             \
  }                                                                                                \
  inline T atomicCAS(T *a, T expected, T desired) {                                                \
    __atomic_compare_exchange_n(a, &expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
    return expected;                                                                               \
  }                                                                                                \
  inline T atomicMin(T *a, T v) {                                                                  \
    T old = __atomic_load_n(a, __ATOMIC_RELAXED);                                                  \
    while (v < old &&                                                                              \
           !__atomic_compare_exchange_n(a, &old, v, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))     \
      ;                                                                                            \
    return old;                                                                                    \
  }                                                                                                \
  inline T atomicMax(T *a, T v) {                                                                  \
    T old = __atomic_load_n(a, __ATOMIC_RELAXED);                                                  \
    while (v > old &&                                                                              \
           !__atomic_compare_exchange_n(a, &old, v, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))     \
      ;                                                                                            \
    return old;                                                                                    \
  }
CUSIM_ATOMIC_INT(int)
CUSIM_ATOMIC_INT(unsigned int)
CUSIM_ATOMIC_INT(unsigned long long)
CUSIM_ATOMIC_INT(long long)
#undef CUSIM_ATOMIC_INT
inline unsigned short atomicCAS(unsigned short *a, unsigned short expected,
                                unsigned short desired) {
  __atomic_compare_exchange_n(a, &expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return expected;
}
inline unsigned atomicInc(unsigned *a, unsigned v) {
  unsigned old = __atomic_load_n(a, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(a, &old, old >= v ? 0u : old + 1u, true, __ATOMIC_SEQ_CST,
                                      __ATOMIC_RELAXED))
    ;
  return old;
}
inline unsigned atomicDec(unsigned *a, unsigned v) {
  unsigned old = __atomic_load_n(a, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(a, &old, (old == 0u || old > v) ? v : old - 1u, true,
                                      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
    ;
  return old;
}
#define CUSIM_ATOMIC_FP(T)                                                                         \
  inline T atomicAdd(T *a, T v) {                                                                  \
    T old, desired;                                                                                \
    __atomic_load(a, &old, __ATOMIC_RELAXED);                                                      \
    do {                                                                                           \
      desired = old + v;                                                                           \
    } while (                                                                                      \
        !__atomic_compare_exchange(a, &old, &desired, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));  \
    return old;                                                                                    \
  }                                                                                                \
  inline T atomicSub(T *a, T v) {                                                                  \
    return atomicAdd(a, -v);                                                                       \
  }                                                                                                \
  inline T atomicExch(T *a, T v) {                                                                 \
    T old;                                                                                         \
    __atomic_exchange(a, &v, &old, __ATOMIC_SEQ_CST);                                              \
    return old;                                                                                    \
  }                                                                                                \
  inline T atomicMin(T *a, T v) {                                                                  \
    T old;                                                                                         \
    __atomic_load(a, &old, __ATOMIC_RELAXED);                                                      \
    while (v < old &&                                                                              \
           !__atomic_compare_exchange(a, &old, &v, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))      \
      ;                                                                                            \
    return old;                                                                                    \
  }                                                                                                \
  inline T atomicMax(T *a, T v) {                                                                  \
    T old;                                                                                         \
    __atomic_load(a, &old, __ATOMIC_RELAXED);                                                      \
    while (v > old &&                                                                              \
           !__atomic_compare_exchange(a, &old, &v, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))      \
      ;                                                                                            \
    return old;                                                                                    \
  }
CUSIM_ATOMIC_FP(float)
CUSIM_ATOMIC_FP(double)
#undef CUSIM_ATOMIC_FP
/* The _block and _system scopes are the same operations here: one device, and every simulated
   thread shares the host's coherent memory. */
#define CUSIM_ATOMIC_SCOPES(op)                                                                    \
  template <class T, class... U> inline T op##_block(T *a, U... v) {                               \
    return op(a, v...);                                                                            \
  }                                                                                                \
  template <class T, class... U> inline T op##_system(T *a, U... v) {                              \
    return op(a, v...);                                                                            \
  }
CUSIM_ATOMIC_SCOPES(atomicAdd)
CUSIM_ATOMIC_SCOPES(atomicSub)
CUSIM_ATOMIC_SCOPES(atomicExch)
CUSIM_ATOMIC_SCOPES(atomicMin)
CUSIM_ATOMIC_SCOPES(atomicMax)
CUSIM_ATOMIC_SCOPES(atomicCAS)
CUSIM_ATOMIC_SCOPES(atomicAnd)
CUSIM_ATOMIC_SCOPES(atomicOr)
CUSIM_ATOMIC_SCOPES(atomicXor)
CUSIM_ATOMIC_SCOPES(atomicInc)
CUSIM_ATOMIC_SCOPES(atomicDec)
#undef CUSIM_ATOMIC_SCOPES

/* C++ overloads of the runtime API, as CUDA's cuda_runtime.h declares them. */
template <class T> inline cudaError_t cudaMalloc(T **devPtr, size_t size) {
  return ::cudaMalloc((void **)(void *)devPtr, size);
}
template <class T>
inline cudaError_t cudaMallocManaged(T **devPtr, size_t size,
                                     unsigned int flags = cudaMemAttachGlobal) {
  return ::cudaMallocManaged((void **)(void *)devPtr, size, flags);
}
template <class T> inline cudaError_t cudaMallocHost(T **ptr, size_t size, unsigned int flags = 0) {
  return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}
template <class T> inline cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags) {
  return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}
template <class T>
inline cudaError_t cudaHostGetDevicePointer(T **pDevice, void *pHost, unsigned int flags) {
  return ::cudaHostGetDevicePointer((void **)(void *)pDevice, pHost, flags);
}
template <class T>
inline cudaError_t cudaMallocPitch(T **devPtr, size_t *pitch, size_t width, size_t height) {
  return ::cudaMallocPitch((void **)(void *)devPtr, pitch, width, height);
}
template <class T>
inline cudaError_t cudaMallocAsync(T **devPtr, size_t size, cudaStream_t stream) {
  return ::cudaMallocAsync((void **)(void *)devPtr, size, stream);
}
inline cudaError_t cudaMallocAsync(void **ptr, size_t size, cudaMemPool_t memPool,
                                   cudaStream_t stream) {
  return ::cudaMallocFromPoolAsync(ptr, size, memPool, stream);
}
template <class T>
inline cudaError_t cudaMallocAsync(T **ptr, size_t size, cudaMemPool_t memPool,
                                   cudaStream_t stream) {
  return ::cudaMallocFromPoolAsync((void **)(void *)ptr, size, memPool, stream);
}
template <class T>
inline cudaError_t cudaMallocFromPoolAsync(T **ptr, size_t size, cudaMemPool_t memPool,
                                           cudaStream_t stream) {
  return ::cudaMallocFromPoolAsync((void **)(void *)ptr, size, memPool, stream);
}
inline cudaError_t cudaEventCreate(cudaEvent_t *event, unsigned int flags) {
  return ::cudaEventCreateWithFlags(event, flags);
}

template <class T>
inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count = sizeof(T),
                                      size_t offset = 0,
                                      enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  ::cusim::detail::register_symbol((const void *)&symbol, sizeof(T));
  return ::cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}
template <class T>
inline cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src,
                                           size_t count = sizeof(T), size_t offset = 0,
                                           enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                           cudaStream_t stream = 0) {
  ::cusim::detail::register_symbol((const void *)&symbol, sizeof(T));
  return ::cudaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset, kind, stream);
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count = sizeof(T),
                                        size_t offset = 0,
                                        enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  ::cusim::detail::register_symbol((const void *)&symbol, sizeof(T));
  return ::cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset, kind);
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count = sizeof(T),
                                             size_t offset = 0,
                                             enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                             cudaStream_t stream = 0) {
  ::cusim::detail::register_symbol((const void *)&symbol, sizeof(T));
  return ::cudaMemcpyFromSymbolAsync(dst, (const void *)&symbol, count, offset, kind, stream);
}
template <class T> inline cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol) {
  ::cusim::detail::register_symbol((const void *)&symbol, sizeof(T));
  return ::cudaGetSymbolAddress(devPtr, (const void *)&symbol);
}
template <class T> inline cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol) {
  ::cusim::detail::register_symbol((const void *)&symbol, sizeof(T));
  return ::cudaGetSymbolSize(size, (const void *)&symbol);
}

template <class T>
inline cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *entry) {
  return ::cudaFuncGetAttributes(attr, (const void *)entry);
}
template <class T>
inline cudaError_t cudaFuncSetAttribute(T *entry, enum cudaFuncAttribute attr, int value) {
  return ::cudaFuncSetAttribute((const void *)entry, attr, value);
}
template <class T> inline cudaError_t cudaFuncSetCacheConfig(T *entry, enum cudaFuncCache config) {
  return ::cudaFuncSetCacheConfig((const void *)entry, config);
}
template <class T>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T entry,
                                                                 int blockSize,
                                                                 size_t dynamicSMemSize) {
  return ::cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, (const void *)entry, blockSize,
                                                         dynamicSMemSize);
}
template <class T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, T func,
                                                      size_t dynamicSMemSize = 0,
                                                      int blockSizeLimit = 0) {
  (void)func;
  if (minGridSize == nullptr || blockSize == nullptr) return cudaErrorInvalidValue;
  int threads = 1024;
  struct cudaFuncAttributes attributes; // maxThreadsPerBlock: the kernel's __launch_bounds__
  if (::cudaFuncGetAttributes(&attributes, (const void *)func) == cudaSuccess &&
      attributes.maxThreadsPerBlock < threads)
    threads = attributes.maxThreadsPerBlock;
  if (blockSizeLimit > 0 && blockSizeLimit < threads) threads = blockSizeLimit;
  int per_sm = 0;
  cudaError_t e = ::cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, (const void *)func,
                                                                  threads, dynamicSMemSize);
  if (e != cudaSuccess) return e;
  int sms = 0;
  ::cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  *blockSize = threads;
  *minGridSize = per_sm * sms;
  return cudaSuccess;
}
template <class T, class UnaryFunction>
inline cudaError_t
cudaOccupancyMaxPotentialBlockSizeVariableSMem(int *minGridSize, int *blockSize, T func,
                                               UnaryFunction blockSizeToDynamicSMemSize,
                                               int blockSizeLimit = 0) {
  int threads = (blockSizeLimit > 0 && blockSizeLimit < 1024) ? blockSizeLimit : 1024;
  struct cudaFuncAttributes attributes;
  if (::cudaFuncGetAttributes(&attributes, (const void *)func) == cudaSuccess &&
      attributes.maxThreadsPerBlock < threads)
    threads = attributes.maxThreadsPerBlock;
  return cudaOccupancyMaxPotentialBlockSize(
      minGridSize, blockSize, func, (size_t)blockSizeToDynamicSMemSize(threads), blockSizeLimit);
}

#include "cusim_ptx.h" /* inline PTX in device code (issue 27) */
#endif
