/* libcu++'s synchronisation for CPU simulator builds (shared/sim): cuda::barrier, cuda::pipeline
   (thread scope), cuda::memcpy_async, cuda::aligned_size_t; used by <cuda/barrier>,
   <cuda/pipeline>, <cuda_pipeline.h> and <cooperative_groups/memcpy_async.h>.

   A barrier is a real synchronisation point of the block's simulated threads: a thread that
   waits for a phase parks (cusim::dev::park_on) until the last arrival completes the phase, and
   the memory checker orders everything before a completed phase with everything after it, as
   it does at __syncthreads(). The barrier's own state is read and written with atomics only (the
   checker leaves atomics out; ThreadSanitizer sees them as synchronisation).

   An asynchronous copy is issued as a write of its destination by the issuing thread, and its
   bytes arrive at the wait that completes it (runtime/async_copy.cpp): a read of the destination
   before that wait is reported by the memory checker. */
#ifndef CUSIM_ASYNC_H
#define CUSIM_ASYNC_H
#pragma GCC system_header

#ifndef __cplusplus
#error "cusim: libcu++ (<cuda/barrier>, <cuda/pipeline>) is for CUDA C++ (.cu) sources"
#endif

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#define CUSIM_SITE_ARGS const char *cusim_file = __builtin_FILE(), int cusim_line = __builtin_LINE()
#define CUSIM_AINLINE __attribute__((always_inline)) inline

namespace cuda {
enum thread_scope {
  thread_scope_system = 0,
  thread_scope_device = 1,
  thread_scope_block = 2,
  thread_scope_thread = 3
};

namespace std {
using ::std::move;
using ::std::ptrdiff_t;
using ::std::size_t;
struct __empty_completion {
  void operator()() noexcept {}
};
} // namespace std

enum class async_contract_fulfillment { none, async };

/* A size that the program promises is a multiple of Align, with both pointers aligned to it. */
template <::std::size_t Align> struct aligned_size_t {
  static constexpr ::std::size_t align = Align;
  ::std::size_t value;
  explicit constexpr aligned_size_t(::std::size_t s) : value(s) {}
  constexpr operator ::std::size_t() const { return value; }
};

namespace cusim_detail {
template <class T> struct size_align {
  static ::std::size_t bytes(T n) { return (::std::size_t)n; }
  static constexpr ::std::size_t align = 1;
};
template <::std::size_t A> struct size_align<aligned_size_t<A>> {
  static ::std::size_t bytes(aligned_size_t<A> n) { return n.value; }
  static constexpr ::std::size_t align = A;
};
template <class Size>
CUSIM_AINLINE void check_alignment(const void *dst, const void *src, Size size, const char *file,
                                   int line) {
  constexpr ::std::size_t a = size_align<Size>::align;
  if (a > 1 && (((uintptr_t)dst | (uintptr_t)src | size_align<Size>::bytes(size)) & (a - 1)))
    ::cusim::dev::misuse("memcpy_async with aligned_size_t<A>: a pointer or the size is not a "
                         "multiple of A (undefined behaviour)",
                         file, line);
}
} // namespace cusim_detail

/* ---- cuda::barrier -------------------------------------------------------------------------- */
template <thread_scope Scope, class CompletionF = std::__empty_completion> class barrier {
public:
  class arrival_token {
    unsigned long long phase_ = 0;
    friend class barrier;

  public:
    arrival_token() = default;
    explicit arrival_token(unsigned long long p) : phase_(p) {}
  };

  barrier() = default; /* __shared__: init() gives it its count */
  barrier(::std::ptrdiff_t expected, CompletionF completion = CompletionF()) {
    set(expected, completion);
  }
  barrier(const barrier &) = delete;
  barrier &operator=(const barrier &) = delete;

  static constexpr ::std::ptrdiff_t max() noexcept { return 0x7FFFFFFF; }

  friend CUSIM_AINLINE void init(barrier *b, ::std::ptrdiff_t expected,
                                 CompletionF completion = CompletionF()) {
    b->set(expected, completion);
  }

  CUSIM_AINLINE arrival_token arrive(::std::ptrdiff_t update = 1, CUSIM_SITE_ARGS) {
    return arrival_token(arrive_at(update, cusim_file, cusim_line));
  }
  CUSIM_AINLINE void wait(arrival_token &&token, CUSIM_SITE_ARGS) const {
    wait_at(token.phase_, cusim_file, cusim_line);
  }
  CUSIM_AINLINE bool try_wait(arrival_token &&token) const { return phase() != token.phase_; }
  CUSIM_AINLINE void arrive_and_wait(CUSIM_SITE_ARGS) {
    wait_at(arrive_at(1, cusim_file, cusim_line), cusim_file, cusim_line);
  }
  CUSIM_AINLINE void arrive_and_drop(CUSIM_SITE_ARGS) {
    check_owner(cusim_file, cusim_line);
    __atomic_sub_fetch(&expected_, 1, __ATOMIC_ACQ_REL);
    arrive_at(1, cusim_file, cusim_line);
  }
  /* The phase whose parity is `parity` has completed: the current phase's parity differs. */
  CUSIM_AINLINE bool try_wait_parity(bool parity) const {
    return (phase() & 1) != (unsigned)parity;
  }
  CUSIM_AINLINE void wait_parity(bool parity, CUSIM_SITE_ARGS) const {
    while ((phase() & 1) == (unsigned)parity)
      ::cusim::dev::park_on(this, "cuda::barrier::wait_parity", cusim_file, cusim_line);
  }

private:
  long long expected_; /* arrivals each phase */
  long long pending_;  /* arrivals still missing in the current phase */
  unsigned long long phase_;
  unsigned long long owner_; /* the block that init() ran in (cusim::dev::block_serial) */
  CompletionF completion_;

  void set(::std::ptrdiff_t expected, CompletionF completion) {
    completion_ = completion;
    __atomic_store_n(&expected_, (long long)expected, __ATOMIC_RELAXED);
    __atomic_store_n(&pending_, (long long)expected, __ATOMIC_RELAXED);
    __atomic_store_n(&phase_, 0ull, __ATOMIC_RELAXED);
    __atomic_store_n(&owner_, ::cusim::dev::block_serial(), __ATOMIC_RELEASE);
  }
  unsigned long long phase() const { return __atomic_load_n(&phase_, __ATOMIC_ACQUIRE); }
  CUSIM_AINLINE void check_owner(const char *file, int line) const {
    if (__atomic_load_n(&owner_, __ATOMIC_ACQUIRE) != ::cusim::dev::block_serial())
      ::cusim::dev::not_simulated("a cuda::barrier used before init() in this block, or by "
                                  "threads of more than one block,",
                                  file, line);
  }
  unsigned long long arrive_at(::std::ptrdiff_t update, const char *file, int line) {
    check_owner(file, line);
    unsigned long long p = phase();
    long long left = __atomic_load_n(&pending_, __ATOMIC_ACQUIRE);
    if (update <= 0 || update > left)
      ::cusim::dev::misuse("cuda::barrier::arrive: more arrivals than the phase expects "
                           "(or an update below 1), which is undefined behaviour",
                           file, line);
    if (__atomic_sub_fetch(&pending_, (long long)update, __ATOMIC_ACQ_REL) == 0) {
      /* Every arrival comes before the phase's copies and its completion function, and they
         come before every waiter goes on. */
      ::cusim::dev::order_point();
      ::cusim::dev::async_complete_key(this);
      completion_();
      __atomic_store_n(&pending_, __atomic_load_n(&expected_, __ATOMIC_ACQUIRE), __ATOMIC_RELEASE);
      __atomic_add_fetch(&phase_, 1ull, __ATOMIC_ACQ_REL);
      ::cusim::dev::release_waiters(this);
    }
    return p;
  }
  void wait_at(unsigned long long p, const char *file, int line) const {
    while (phase() == p) ::cusim::dev::park_on(this, "cuda::barrier::wait", file, line);
  }
};

/* ---- cuda::pipeline ------------------------------------------------------------------------- */
enum class pipeline_role { producer, consumer };

template <thread_scope Scope, uint8_t StagesCount> class pipeline_shared_state {
public:
  pipeline_shared_state() = default;
  pipeline_shared_state(const pipeline_shared_state &) = delete;

private:
  unsigned char unused_[8];
};

template <thread_scope Scope> class pipeline;

/* A thread's own pipeline (make_pipeline()): its copies, committed in batches (stages). As in
   CUDA 13's libcu++, consumer_wait() waits for the oldest stage not yet waited for and moves on
   to the next (consumer_release() does nothing), and pipeline_consumer_wait_prior<N> waits for
   all but the N newest stages. */
template <> class pipeline<thread_scope_thread> {
public:
  pipeline(pipeline &&) = default;
  pipeline(const pipeline &) = delete;
  pipeline &operator=(const pipeline &) = delete;
  ~pipeline() {}

  CUSIM_AINLINE void producer_acquire() {}
  CUSIM_AINLINE void producer_commit() { ++head_; }
  CUSIM_AINLINE void consumer_wait() {
    if (head_ == tail_) return;
    ::cusim::dev::async_wait(this, ++tail_);
  }
  template <class Duration> CUSIM_AINLINE bool consumer_wait_for(const Duration &) {
    consumer_wait();
    return true;
  }
  template <class TimePoint> CUSIM_AINLINE bool consumer_wait_until(const TimePoint &) {
    consumer_wait();
    return true;
  }
  CUSIM_AINLINE void consumer_release() {}
  CUSIM_AINLINE bool quit() { return true; }
  unsigned long long cusim_head() const { return head_; }
  void cusim_wait_prior(unsigned long long prior) {
    tail_ = head_ > prior ? head_ - prior : 0;
    ::cusim::dev::async_wait(this, tail_);
  }

private:
  pipeline() = default;
  friend pipeline make_pipeline();
  unsigned long long head_ = 0, tail_ = 0;
};

inline pipeline<thread_scope_thread> make_pipeline() {
  return pipeline<thread_scope_thread>();
}

/* Wait until at most Prior of the thread's committed batches are still in flight. */
template <uint8_t Prior>
CUSIM_AINLINE void pipeline_consumer_wait_prior(pipeline<thread_scope_thread> &p) {
  p.cusim_wait_prior(Prior);
}

/* A pipeline shared by a group of threads (pipeline_shared_state): not simulated. */
template <> class pipeline<thread_scope_block> {
public:
  void producer_acquire() {}
  void producer_commit() {}
  void consumer_wait() {}
  void consumer_release() {}
  bool quit() { return true; }
};
template <class Group, uint8_t Stages>
CUSIM_AINLINE pipeline<thread_scope_block>
make_pipeline(const Group &, pipeline_shared_state<thread_scope_block, Stages> *, pipeline_role,
              CUSIM_SITE_ARGS) {
  ::cusim::dev::not_simulated("cuda::make_pipeline with a pipeline_shared_state (a pipeline "
                              "shared by a group's producers and consumers)",
                              cusim_file, cusim_line);
}
template <class Group, uint8_t Stages>
CUSIM_AINLINE pipeline<thread_scope_block>
make_pipeline(const Group &, pipeline_shared_state<thread_scope_block, Stages> *, CUSIM_SITE_ARGS) {
  ::cusim::dev::not_simulated("cuda::make_pipeline with a pipeline_shared_state (a pipeline "
                              "shared by a group's threads)",
                              cusim_file, cusim_line);
}
template <class Group, uint8_t Stages>
CUSIM_AINLINE pipeline<thread_scope_block>
make_pipeline(const Group &, pipeline_shared_state<thread_scope_block, Stages> *, size_t,
              CUSIM_SITE_ARGS) {
  ::cusim::dev::not_simulated("cuda::make_pipeline with a pipeline_shared_state and a producer "
                              "count",
                              cusim_file, cusim_line);
}

/* ---- cuda::memcpy_async --------------------------------------------------------------------- */
template <class Size>
CUSIM_AINLINE void memcpy_async(void *dst, const void *src, Size size,
                                pipeline<thread_scope_thread> &pipe, CUSIM_SITE_ARGS) {
  cusim_detail::check_alignment(dst, src, size, cusim_file, cusim_line);
  ::cusim::dev::async_copy(&pipe, pipe.cusim_head(), dst, src,
                           cusim_detail::size_align<Size>::bytes(size), 0, cusim_file, cusim_line);
}
template <class Size, thread_scope Scope, class F>
CUSIM_AINLINE async_contract_fulfillment memcpy_async(void *dst, const void *src, Size size,
                                                      barrier<Scope, F> &bar, CUSIM_SITE_ARGS) {
  cusim_detail::check_alignment(dst, src, size, cusim_file, cusim_line);
  ::cusim::dev::async_copy(&bar, 0, dst, src, cusim_detail::size_align<Size>::bytes(size), 0,
                           cusim_file, cusim_line);
  return async_contract_fulfillment::async;
}
/* A shared pipeline's copies: never reached (make_pipeline stops first). */
template <class Size>
CUSIM_AINLINE void memcpy_async(void *, const void *, Size, pipeline<thread_scope_block> &,
                                CUSIM_SITE_ARGS) {
  ::cusim::dev::not_simulated("cuda::memcpy_async into a shared pipeline", cusim_file, cusim_line);
}
template <class Group, class Size>
CUSIM_AINLINE void memcpy_async(const Group &, void *, const void *, Size,
                                pipeline<thread_scope_block> &, CUSIM_SITE_ARGS) {
  ::cusim::dev::not_simulated("cuda::memcpy_async into a shared pipeline", cusim_file, cusim_line);
}
/* The group forms: every thread of the group calls it with the same arguments, and each copies
   its share. */
namespace cusim_detail {
template <class Group>
CUSIM_AINLINE void group_share(const Group &g, ::std::size_t n, ::std::size_t *lo,
                               ::std::size_t *hi) {
  ::std::size_t threads = (::std::size_t)g.size(), r = (::std::size_t)g.thread_rank();
  ::std::size_t chunk = (n + threads - 1) / threads;
  chunk = (chunk + 15) / 16 * 16;
  *lo = r * chunk < n ? r * chunk : n;
  *hi = *lo + chunk < n ? *lo + chunk : n;
}
} // namespace cusim_detail
template <class Group, class Size>
CUSIM_AINLINE void memcpy_async(const Group &g, void *dst, const void *src, Size size,
                                pipeline<thread_scope_thread> &pipe, CUSIM_SITE_ARGS) {
  cusim_detail::check_alignment(dst, src, size, cusim_file, cusim_line);
  ::std::size_t lo, hi;
  cusim_detail::group_share(g, cusim_detail::size_align<Size>::bytes(size), &lo, &hi);
  if (hi > lo)
    ::cusim::dev::async_copy(&pipe, pipe.cusim_head(), (char *)dst + lo, (const char *)src + lo,
                             hi - lo, 0, cusim_file, cusim_line);
}
template <class Group, class Size, thread_scope Scope, class F>
CUSIM_AINLINE async_contract_fulfillment memcpy_async(const Group &g, void *dst, const void *src,
                                                      Size size, barrier<Scope, F> &bar,
                                                      CUSIM_SITE_ARGS) {
  cusim_detail::check_alignment(dst, src, size, cusim_file, cusim_line);
  ::std::size_t lo, hi;
  cusim_detail::group_share(g, cusim_detail::size_align<Size>::bytes(size), &lo, &hi);
  if (hi > lo)
    ::cusim::dev::async_copy(&bar, 0, (char *)dst + lo, (const char *)src + lo, hi - lo, 0,
                             cusim_file, cusim_line);
  return async_contract_fulfillment::async;
}
} // namespace cuda

#endif
