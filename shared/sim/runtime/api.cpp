// The runtime API of the simulated device: errors, device queries, memory with the bookkeeping a
// learner's mistakes need, streams and events (their queues: streams.cpp), memory pools, launches.
#include "internal.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#if defined(CUSIM_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/lsan_interface.h>
#endif

struct CUstream_st {
  unsigned flags;
  int priority;
};
struct CUevent_st {
  unsigned flags;
  bool recorded;  // cudaEventRecord was called
  bool completed; // the queue reached the record
  uint64_t ns;
};
struct CUmemPoolHandle_st {
  size_t release_threshold = 0;
  size_t reserved = 0, reserved_high = 0, used = 0, used_high = 0;
  std::multimap<size_t, void *> free_blocks; // size -> block, its cudaFreeAsync has run
  // Freed by a cudaFreeAsync still in the queue: later allocations may reuse these at once (the
  // allocating stream then waits for that free, as the driver's internal dependencies make it
  // do), but they cannot go back to the system yet.
  struct pending_block {
    void *ptr;
    uint64_t free_serial; // which cudaFreeAsync put it here (a block can be freed, reused, freed)
    cusim::rt::point freed_at; // the cudaFreeAsync in its stream: a reuse on another waits for it
  };
  std::multimap<size_t, pending_block> pending_blocks;
  uint64_t next_free_serial = 0;
  bool is_default = false;
};

namespace cusim {
namespace rt {
namespace {

struct error_entry {
  int code;
  const char *name;
  const char *text;
};
// Names and messages exactly as CUDA 13's cudaGetErrorName/cudaGetErrorString return them.
const error_entry error_table[] = {
#include "error_table.inc"
};

thread_local cudaError_t last_error = cudaSuccess;
std::mutex mu; // guards everything below (the API may be called from several host threads)
cudaError_t sticky_error = cudaSuccess;
int current_device = 0;
unsigned device_flags = 0;

struct allocation {
  size_t size;
  mem_kind kind;
  unsigned flags;
  cudaMemPool_t pool;
};
std::map<uintptr_t, allocation> live;  // base -> allocation
std::map<uintptr_t, allocation> freed; // recently freed, for "already freed" messages
// Pages pinned by cudaHostRegister: first page -> one past the last. The driver pins whole pages,
// so a range that shares a page with one registered before cannot be registered too.
std::map<uintptr_t, uintptr_t> registered_pages;
std::deque<uintptr_t> freed_order;
std::set<cudaStream_t> streams;
std::set<cudaEvent_t> events;
std::set<cudaMemPool_t> pools;
CUmemPoolHandle_st default_pool_obj;
cudaMemPool_t current_pool = nullptr;
std::map<const void *, int> func_max_dynamic_shared;

uint64_t now_ns() {
  return (uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void remember_freed(uintptr_t base, const allocation &a) {
  freed[base] = a;
  freed_order.push_back(base);
  if (freed_order.size() > 4096) {
    freed.erase(freed_order.front());
    freed_order.pop_front();
  }
}

lookup find_locked(const void *p) {
  lookup r;
  uintptr_t a = (uintptr_t)p;
  auto it = live.upper_bound(a);
  if (it != live.begin()) {
    --it;
    if (a >= it->first && a - it->first <= it->second.size) {
      r.live = true;
      r.kind = it->second.kind;
      r.base = it->first;
      r.size = it->second.size;
      return r;
    }
  }
  auto ft = freed.upper_bound(a);
  if (ft != freed.begin()) {
    --ft;
    if (a >= ft->first && a - ft->first < std::max<size_t>(ft->second.size, 1)) {
      r.freed = true;
      r.kind = ft->second.kind;
      r.base = ft->first;
      r.size = ft->second.size;
    }
  }
  return r;
}

void add_live(void *p, size_t size, mem_kind kind, unsigned flags = 0,
              cudaMemPool_t pool = nullptr) {
  uintptr_t a = (uintptr_t)p;
  freed.erase(a);
  live[a] = allocation{size, kind, flags, pool};
}

#define CUSIM_CHECK_STICKY()                                                                       \
  do {                                                                                             \
    if (sticky_error != cudaSuccess) return set_error(sticky_error);                               \
  } while (0)

// Device memory is host memory. Large blocks are mapped on their own, 2 MiB aligned (huge pages
// where the kernel offers them), so where they land, and with it how fast a kernel runs over
// them, does not depend on what the C library's heap did before (with the heap, the same kernel
// was seen to take 2 to 17 ms depending on allocation order). Small blocks, and every block under
// AddressSanitizer (whose redzones need its allocator), come from posix_memalign.
constexpr size_t mapped_min_bytes = size_t(1) << 20, mapped_alignment = size_t(2) << 20;
// At least this much past the end of a mapped block is a guard (no access).
constexpr size_t guard_bytes = size_t(64) << 10;
std::mutex mapped_mu;
std::map<void *, size_t> mapped_blocks; // start -> length

// Each block starts at its own offset from the 2 MiB boundary (a multiple of 256 bytes, as
// cudaMalloc promises): arrays that all began on the boundary would share cache sets, and a kernel
// reading a[i] and b[i] and writing c[i] would evict its own lines.
[[maybe_unused]] void *map_aligned(size_t size) { // unused under ASan
  static std::atomic<unsigned> next_color{0};
  size_t color = (next_color++ % 16) * (4096 + 256);
  size_t asked = size;
  size += color + guard_bytes;
  size_t length = (size + mapped_alignment - 1) / mapped_alignment * mapped_alignment;
  size_t padded = length + mapped_alignment;
  void *raw = mmap(nullptr, padded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  uintptr_t start = ((uintptr_t)raw + mapped_alignment - 1) / mapped_alignment * mapped_alignment;
  size_t head = start - (uintptr_t)raw, tail = padded - head - length;
  if (head) munmap(raw, head);
  if (tail) munmap((char *)start + length, tail);
#if defined(MADV_HUGEPAGE)
  madvise((void *)start, length, MADV_HUGEPAGE);
#endif
  // Past the end, from the next page on, nothing is writable: a kernel that runs off the end
  // faults (and crash.cpp names the allocation) instead of scribbling on the rest of the mapping.
  uintptr_t end = (start + color + asked + 4095) / 4096 * 4096;
  mprotect((void *)end, start + length - end, PROT_NONE);
  std::lock_guard<std::mutex> lock(mapped_mu);
  mapped_blocks[(void *)(start + color)] = length;
  return (void *)(start + color);
}

void raw_free(void *p) {
  if (arena_free(p)) return;
  {
    std::lock_guard<std::mutex> lock(mapped_mu);
    auto it = mapped_blocks.find(p);
    if (it != mapped_blocks.end()) {
      munmap((void *)((uintptr_t)p / mapped_alignment * mapped_alignment), it->second);
      mapped_blocks.erase(it);
      return;
    }
  }
  std::free(p);
}

void *raw_alloc(size_t size) {
  if (void *p = arena_alloc(size, false)) return p; // the memory checker's (instrument.cpp)
#if !defined(CUSIM_ASAN)
  if (size >= mapped_min_bytes) return map_aligned(size);
#endif
  void *p = nullptr;
  if (posix_memalign(&p, 256, size ? size : 1) != 0) return nullptr;
  return p;
}

size_t physical_memory() {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? (size_t)pages * (size_t)page : (size_t)16 << 30;
}
size_t available_memory() {
  long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? (size_t)pages * (size_t)page : physical_memory() / 2;
}

const char *kind_text(cudaMemcpyKind k) {
  switch (k) {
  case cudaMemcpyHostToHost:
    return "HostToHost";
  case cudaMemcpyHostToDevice:
    return "HostToDevice";
  case cudaMemcpyDeviceToHost:
    return "DeviceToHost";
  case cudaMemcpyDeviceToDevice:
    return "DeviceToDevice";
  case cudaMemcpyDefault:
    return "Default";
  }
  return "?";
}

bool device_side(const lookup &l) {
  return l.live && (l.kind == mem_kind::device || l.kind == mem_kind::managed ||
                    l.kind == mem_kind::pool || l.kind == mem_kind::symbol);
}

// Checks one end of a copy; returns false (after a message) when it is not usable.
bool check_end(const char *api, cudaMemcpyKind kind, const char *which, const void *p, size_t count,
               bool want_device) {
  lookup l = find_locked(p);
  char buf[512];
  if (want_device) {
    if (l.live && (device_side(l) || l.kind == mem_kind::managed)) {
      if ((uintptr_t)p + count > l.base + l.size) {
        std::snprintf(buf, sizeof buf,
                      "%s(%s): the %s range [%p, +%zu bytes) runs past the end of its allocation "
                      "of %zu bytes at %p "
                      "(by %zu bytes)",
                      api, kind_text(kind), which, p, count, l.size, (void *)l.base,
                      (size_t)((uintptr_t)p + count - (l.base + l.size)));
        report("%s", buf);
        return false;
      }
      return true;
    }
    if (l.freed) {
      report("%s(%s): %s %p is in device memory that was already freed (allocation of %zu bytes at "
             "%p)",
             api, kind_text(kind), which, p, l.size, (void *)l.base);
      return false;
    }
    if (p == nullptr) {
      report("%s(%s): %s is a null pointer", api, kind_text(kind), which);
      return false;
    }
    report("%s(%s): %s %p is host memory, not a device allocation (check the copy's direction and "
           "the pointer)",
           api, kind_text(kind), which, p);
    return false;
  }
  // want host memory
  if (l.live &&
      (l.kind == mem_kind::device || l.kind == mem_kind::pool || l.kind == mem_kind::symbol)) {
    report("%s(%s): %s %p is device memory (an allocation of %zu bytes at %p), not host memory "
           "(check the copy's "
           "direction)",
           api, kind_text(kind), which, p, l.size, (void *)l.base);
    return false;
  }
  // An address in freed device memory is not reported here: the C library may since have handed
  // it out again, as host memory, to the very buffer the program passes.
  if (p == nullptr) {
    report("%s(%s): %s is a null pointer", api, kind_text(kind), which);
    return false;
  }
  if (l.live && (uintptr_t)p + count > l.base + l.size) {
    report("%s(%s): the %s range [%p, +%zu bytes) runs past the end of its allocation of %zu bytes "
           "at %p",
           api, kind_text(kind), which, p, count, l.size, (void *)l.base);
    return false;
  }
  return true;
}

// Validates a copy of count bytes; returns cudaSuccess or the error CUDA reports.
cudaError_t check_copy(const char *api, void *dst, const void *src, size_t count,
                       cudaMemcpyKind kind) {
  if ((int)kind < 0 || (int)kind > 4) {
    report("%s: %d is not a cudaMemcpyKind", api, (int)kind);
    return cudaErrorInvalidMemcpyDirection;
  }
  if (count == 0) return cudaSuccess;
  std::lock_guard<std::mutex> lock(mu);
  bool src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  bool dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  if (kind == cudaMemcpyDefault) {
    lookup s = find_locked(src), d = find_locked(dst);
    // Freed device addresses are not reported with cudaMemcpyDefault: the C library may have
    // handed them out again as host memory, and Default cannot tell which side was meant.
    if (src == nullptr || dst == nullptr) {
      report("%s(Default): null pointer", api);
      return cudaErrorInvalidValue;
    }
    if (s.live && (uintptr_t)src + count > s.base + s.size) {
      report("%s(Default): the source range [%p, +%zu bytes) runs past the end of its allocation "
             "of %zu bytes",
             api, src, count, s.size);
      return cudaErrorInvalidValue;
    }
    if (d.live && (uintptr_t)dst + count > d.base + d.size) {
      report("%s(Default): the destination range [%p, +%zu bytes) runs past the end of its "
             "allocation of %zu bytes",
             api, dst, count, d.size);
      return cudaErrorInvalidValue;
    }
    return cudaSuccess;
  }
  if (!check_end(api, kind, "destination", dst, count, dst_dev)) return cudaErrorInvalidValue;
  if (!check_end(api, kind, "source", src, count, src_dev)) return cudaErrorInvalidValue;
  return cudaSuccess;
}

CUmemPoolHandle_st *default_pool() {
  default_pool_obj.is_default = true;
  return &default_pool_obj;
}

// Gives unused pool blocks back to the system, smallest first. cudaMemPoolTrimTo keeps at least
// `keep` bytes reserved (a block goes only if what stays is still >= keep); the release
// threshold at a synchronization releases until at most `keep` bytes stay reserved. Only blocks
// whose cudaFreeAsync has run can go: one still in the queue may be in use by earlier work.
enum class trim_rule { keep_at_least, release_down_to };
void pool_trim(cudaMemPool_t p, size_t keep, trim_rule rule) {
  auto it = p->free_blocks.begin();
  while (p->reserved > keep && it != p->free_blocks.end()) {
    if (rule == trim_rule::keep_at_least && p->reserved - it->first < keep) {
      ++it;
      continue;
    }
    p->reserved -= it->first;
#if defined(CUSIM_ASAN)
    __asan_unpoison_memory_region(it->second, it->first);
#endif
    live.erase((uintptr_t)it->second);
    raw_free(it->second);
    it = p->free_blocks.erase(it);
  }
}

void pools_at_sync() {
  pool_trim(default_pool(), default_pool()->release_threshold, trim_rule::release_down_to);
  for (cudaMemPool_t p : pools) pool_trim(p, p->release_threshold, trim_rule::release_down_to);
}

size_t pool_round(size_t size) {
  return (size + 511) / 512 * 512;
}

cudaError_t pool_alloc(void **ptr, size_t size, cudaMemPool_t p, point *after = nullptr) {
  size_t want = pool_round(size ? size : 1);
  void *block = nullptr;
  auto it = p->free_blocks.lower_bound(want);
  size_t got = want;
  auto pending = p->pending_blocks.lower_bound(want);
  if (it != p->free_blocks.end() && it->first <= want * 2) {
    block = it->second;
    got = it->first;
    p->free_blocks.erase(it);
#if defined(CUSIM_ASAN)
    __asan_unpoison_memory_region(block, got);
#endif
  } else if (pending != p->pending_blocks.end() && pending->first <= want * 2) {
    // Freed earlier in stream order: never poisoned, and its queued free now finds it gone.
    block = pending->second.ptr;
    got = pending->first;
    if (after) *after = pending->second.freed_at;
    p->pending_blocks.erase(pending);
  } else {
    block = raw_alloc(want);
    if (!block) return cudaErrorMemoryAllocation;
#if defined(CUSIM_ASAN)
    __lsan_ignore_object(block);
#endif
    p->reserved += want;
    p->reserved_high = std::max(p->reserved_high, p->reserved);
  }
  p->used += got;
  p->used_high = std::max(p->used_high, p->used);
  // The registry records the size asked for, so that copies past it are caught.
  add_live(block, size, mem_kind::pool, (unsigned)got, p);
  *ptr = block;
  return cudaSuccess;
}

// At the cudaFreeAsync call: the block leaves the registry (later launches and copies that
// name it are errors) and becomes reusable by later allocations at once.
uint64_t pool_free_locked(void *ptr) {
  auto it = live.find((uintptr_t)ptr);
  if (it == live.end() || it->second.kind != mem_kind::pool) return 0;
  cudaMemPool_t p = it->second.pool;
  size_t got = it->second.flags;
  remember_freed(it->first, it->second);
  live.erase(it);
  p->used -= got;
  uint64_t serial = ++p->next_free_serial;
  p->pending_blocks.emplace(got, CUmemPoolHandle_st::pending_block{ptr, serial, {}});
  return serial;
}

// When the queue reaches the cudaFreeAsync: unless a later allocation took the block back
// already, it is now idle and may return to the system.
void pool_free_completed_locked(cudaMemPool_t p, void *ptr, size_t got, uint64_t serial) {
  auto range = p->pending_blocks.equal_range(got);
  for (auto it = range.first; it != range.second; ++it) {
    if (it->second.ptr != ptr || it->second.free_serial != serial) continue;
    p->pending_blocks.erase(it);
    p->free_blocks.emplace(got, ptr);
#if defined(CUSIM_ASAN)
    __asan_poison_memory_region(ptr, got); // use after cudaFreeAsync is reported
#endif
    return;
  }
}

bool valid_pool(cudaMemPool_t p) {
  return p == default_pool() || pools.count(p) != 0;
}

void after_sync() {
  std::lock_guard<std::mutex> lock(mu);
  pools_at_sync();
}

// A device-wide wait (cudaDeviceSynchronize, cudaFree): every stream runs to its end.
void sync_all() {
  run_queue();
  after_sync();
}

// A blocking call on the legacy default stream (cudaMemcpy, cudaMemset): it waits for the
// blocking streams' earlier work, not for cudaStreamNonBlocking streams.
void sync_blocking() {
  sync_legacy();
  after_sync();
}

} // namespace

// ---- shared helpers -----------------------------------------------------------------------------

cudaError_t set_error(cudaError_t e) {
  // cudaErrorNotReady is a status, not an error: CUDA does not record it as the last error.
  if (e != cudaSuccess && e != cudaErrorNotReady) last_error = e;
  return e;
}
void set_sticky(cudaError_t e) {
  std::lock_guard<std::mutex> lock(mu);
  if (sticky_error == cudaSuccess) sticky_error = e;
  last_error = e;
}
cudaError_t sticky() {
  std::lock_guard<std::mutex> lock(mu);
  return sticky_error;
}
void report(const char *fmt, ...) {
  std::fflush(stdout);
  char buf[4096];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  std::fprintf(stderr, "cusim: error: %s\n", buf);
  std::fflush(stderr);
  note_error_task(buf);
}
static std::atomic<int> last_error_task{0};
void note_error_task(const char *message) {
  const char *p = std::strstr(message, "(task ");
  if (p) last_error_task.store(std::atoi(p + 6));
}
const char *kind_name(mem_kind k) {
  switch (k) {
  case mem_kind::device:
    return "device";
  case mem_kind::managed:
    return "managed";
  case mem_kind::pinned:
    return "pinned host";
  case mem_kind::registered:
    return "registered host";
  case mem_kind::pool:
    return "pool";
  case mem_kind::symbol:
    return "symbol";
  }
  return "?";
}
extern "C" int cusim_last_error_task(void) {
  return last_error_task.load();
}
extern "C" long long cusim_device_bytes_held(void) {
  std::lock_guard<std::mutex> lock(mu);
  long long held = 0;
  for (const auto &kv : live)
    if (kv.second.kind == mem_kind::device || kv.second.kind == mem_kind::managed)
      held += (long long)kv.second.size;
  return held;
}

lookup find(const void *p) {
  std::lock_guard<std::mutex> lock(mu);
  return find_locked(p);
}

lookup nearest_allocation(const void *p) {
  lookup r;
  std::unique_lock<std::mutex> lock(mu, std::try_to_lock);
  if (!lock.owns_lock()) return r;
  uintptr_t a = (uintptr_t)p;
  auto above = live.upper_bound(a);
  uintptr_t best = ~(uintptr_t)0;
  auto take = [&](std::map<uintptr_t, allocation>::iterator it, uintptr_t dist) {
    if (dist >= best) return;
    best = dist;
    r.live = true;
    r.kind = it->second.kind;
    r.base = it->first;
    r.size = it->second.size;
  };
  if (above != live.end()) take(above, above->first - a);
  if (above != live.begin()) {
    auto below = std::prev(above);
    uintptr_t end = below->first + below->second.size;
    take(below, a < end ? 0 : a - end);
  }
  return r;
}

bool valid_stream(cudaStream_t s) {
  if (s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread) return true;
  std::lock_guard<std::mutex> lock(mu);
  return streams.count(s) != 0;
}

size_t max_dynamic_shared() {
  std::lock_guard<std::mutex> lock(mu);
  int m = 48 * 1024;
  for (auto &kv : func_max_dynamic_shared) m = std::max(m, kv.second);
  return (size_t)m;
}

} // namespace rt

// ---- launches -----------------------------------------------------------------------------------

namespace detail {

int launch_begin(const dim3 &grid, const dim3 &block, size_t shared, cudaStream_t stream,
                 const char *name, const char *file, int line) {
  if (rt::sticky() != cudaSuccess) {
    rt::set_error(rt::sticky());
    return 1;
  }
  char why[256] = "";
  unsigned long long threads = (unsigned long long)block.x * block.y * block.z;
  if (block.x == 0 || block.y == 0 || block.z == 0)
    std::snprintf(why, sizeof why,
                  "a block of %u x %u x %u threads is empty (every dimension must be at least 1)",
                  block.x, block.y, block.z);
  else if (block.x > 1024 || block.y > 1024 || block.z > 64)
    std::snprintf(why, sizeof why,
                  "block dimensions (%u, %u, %u) exceed the limits (1024, 1024, 64)", block.x,
                  block.y, block.z);
  else if (threads > 1024)
    std::snprintf(
        why, sizeof why,
        "a block of %u x %u x %u = %llu threads exceeds the limit of 1024 threads per block",
        block.x, block.y, block.z, threads);
  else if (grid.x == 0 || grid.y == 0 || grid.z == 0)
    std::snprintf(why, sizeof why,
                  "a grid of %u x %u x %u blocks is empty (every dimension must be at least 1)",
                  grid.x, grid.y, grid.z);
  else if (grid.x > 2147483647u || grid.y > 65535 || grid.z > 65535)
    std::snprintf(why, sizeof why,
                  "grid dimensions (%u, %u, %u) exceed the limits (2147483647, 65535, 65535)",
                  grid.x, grid.y, grid.z);
  else if (shared > rt::max_dynamic_shared())
    std::snprintf(
        why, sizeof why,
        "%zu bytes of dynamic shared memory exceed the limit of %zu bytes per block (raise it with "
        "cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes))",
        shared, rt::max_dynamic_shared());
  if (why[0]) {
    rt::report("invalid configuration in the launch of kernel '%s' at %s:%d: %s "
               "(cudaErrorInvalidConfiguration)",
               name, file, line, why);
    rt::set_error(cudaErrorInvalidConfiguration);
    return 1;
  }
  if (!rt::valid_stream(stream)) {
    rt::report("launch of kernel '%s' at %s:%d: stream %p is not a live stream", name, file, line,
               (void *)stream);
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
               name, file, line, index, p);
  } else {
    rt::report("kernel '%s' launched at %s:%d: argument %d (%p) is a host pointer, not memory from "
               "cudaMalloc, cudaMallocManaged or cudaHostAlloc. Copy the data to device memory "
               "and pass the device pointer. (Most GPUs fail with an illegal memory access; one "
               "that can read pageable memory (HMM, cudaDevAttrPageableMemoryAccess = 1) runs it, "
               "slowly. The simulator is stricter and always refuses it.)",
               name, file, line, index, p);
  }
  return false;
}

void launch_submit(kernel_base *k, bool pointers_ok) {
  k->cooperative = rt::cooperative_launch_requested();
  if (!pointers_ok) {
    cudaStream_t stream = k->stream;
    delete k;
    rt::enqueue(stream, [] { rt::set_sticky(cudaErrorIllegalAddress); });
    return;
  }
  rt::enqueue(k->stream, [k] {
    if (rt::sticky() == cudaSuccess) {
      cudaError_t e = rt::run_kernel(k);
      if (e != cudaSuccess) rt::set_sticky(e);
    }
    delete k;
  });
}

void register_symbol(const void *addr, size_t size) {
  std::lock_guard<std::mutex> lock(rt::mu);
  auto it = rt::live.find((uintptr_t)addr);
  if (it == rt::live.end())
    rt::live[(uintptr_t)addr] = rt::allocation{size, rt::mem_kind::symbol, 0, nullptr};
}

} // namespace detail
} // namespace cusim

using namespace cusim::rt;
using cusim::rt::set_error;

// ---- the C API ----------------------------------------------------------------------------------

extern "C" {

const char *cudaGetErrorName(cudaError_t error) {
  for (const auto &e : error_table)
    if (e.code == (int)error) return e.name;
  return "unrecognized error code";
}
const char *cudaGetErrorString(cudaError_t error) {
  for (const auto &e : error_table)
    if (e.code == (int)error) return e.text;
  return "unrecognized error code";
}
cudaError_t cudaGetLastError(void) {
  cudaError_t e = last_error;
  last_error = sticky();
  return e;
}
cudaError_t cudaPeekAtLastError(void) {
  return last_error;
}

// ---- device ----

cudaError_t cudaGetDeviceCount(int *count) {
  if (!count) return set_error(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int *device) {
  if (!device) return set_error(cudaErrorInvalidValue);
  *device = current_device;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) {
  if (device != 0) return set_error(cudaErrorInvalidDevice);
  current_device = device;
  return cudaSuccess;
}
cudaError_t cudaInitDevice(int device, unsigned int, unsigned int) {
  return cudaSetDevice(device);
}
cudaError_t cudaSetDeviceFlags(unsigned int flags) {
  device_flags = flags;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceFlags(unsigned int *flags) {
  if (!flags) return set_error(cudaErrorInvalidValue);
  *flags = device_flags;
  return cudaSuccess;
}
cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *) {
  if (!device) return set_error(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int device) {
  if (!p) return set_error(cudaErrorInvalidValue);
  if (device != 0) return set_error(cudaErrorInvalidDevice);
  std::memset(p, 0, sizeof *p);
  std::snprintf(p->name, sizeof p->name, "CPU simulator");
  int workers = worker_count();
  p->totalGlobalMem = physical_memory();
  p->sharedMemPerBlock = 48 * 1024;
  p->regsPerBlock = 65536;
  p->warpSize = 32;
  p->memPitch = (size_t)2147483647;
  p->maxThreadsPerBlock = 1024;
  p->maxThreadsDim[0] = 1024;
  p->maxThreadsDim[1] = 1024;
  p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = 2147483647;
  p->maxGridSize[1] = 65535;
  p->maxGridSize[2] = 65535;
  p->totalConstMem = 65536;
  p->major = 9;
  p->minor = 0;
  p->textureAlignment = 512;
  p->texturePitchAlignment = 32;
  p->multiProcessorCount = workers;
  p->integrated = 1;
  p->canMapHostMemory = 1;
  p->concurrentKernels = 1;
  p->asyncEngineCount = 1;
  p->unifiedAddressing = 1;
  p->memoryBusWidth = 64;
  p->l2CacheSize = 4 * 1024 * 1024;
  p->maxThreadsPerMultiProcessor = 2048;
  p->streamPrioritiesSupported = 1;
  p->globalL1CacheSupported = 1;
  p->localL1CacheSupported = 1;
  p->sharedMemPerMultiprocessor = 228 * 1024;
  p->regsPerMultiprocessor = 65536;
  p->managedMemory = 1;
  p->hostNativeAtomicSupported = 1;
  p->pageableMemoryAccess = 0;
  p->concurrentManagedAccess = 1;
  p->canUseHostPointerForRegisteredMem = 1;
  p->cooperativeLaunch = 1;
  p->sharedMemPerBlockOptin = 227 * 1024;
  p->directManagedMemAccessFromHost = 1;
  p->maxBlocksPerMultiProcessor = 32;
  p->hostRegisterSupported = 1;
  p->memoryPoolsSupported = 1;
  p->memoryPoolSupportedHandleTypes = 0;
  p->clusterLaunch = 0;
  p->deviceNumaId = -1;
  p->hostNumaId = -1;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device) {
  if (!value) return set_error(cudaErrorInvalidValue);
  if (device != 0) return set_error(cudaErrorInvalidDevice);
  struct cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  int v = 0;
  switch (attr) {
  case cudaDevAttrMaxThreadsPerBlock:
    v = p.maxThreadsPerBlock;
    break;
  case cudaDevAttrMaxBlockDimX:
    v = p.maxThreadsDim[0];
    break;
  case cudaDevAttrMaxBlockDimY:
    v = p.maxThreadsDim[1];
    break;
  case cudaDevAttrMaxBlockDimZ:
    v = p.maxThreadsDim[2];
    break;
  case cudaDevAttrMaxGridDimX:
    v = p.maxGridSize[0];
    break;
  case cudaDevAttrMaxGridDimY:
    v = p.maxGridSize[1];
    break;
  case cudaDevAttrMaxGridDimZ:
    v = p.maxGridSize[2];
    break;
  case cudaDevAttrMaxSharedMemoryPerBlock:
    v = (int)p.sharedMemPerBlock;
    break;
  case cudaDevAttrTotalConstantMemory:
    v = (int)p.totalConstMem;
    break;
  case cudaDevAttrWarpSize:
    v = 32;
    break;
  case cudaDevAttrMaxPitch:
    v = (int)p.memPitch;
    break;
  case cudaDevAttrMaxRegistersPerBlock:
    v = p.regsPerBlock;
    break;
  case cudaDevAttrClockRate:
    v = 0;
    break; // no meaningful clock: the simulator
  case cudaDevAttrMemoryClockRate:
    v = 0;
    break; // 0: there is no peak bandwidth to compare with
  case cudaDevAttrGlobalMemoryBusWidth:
    v = p.memoryBusWidth;
    break;
  case cudaDevAttrMultiProcessorCount:
    v = p.multiProcessorCount;
    break;
  case cudaDevAttrIntegrated:
    v = p.integrated;
    break;
  case cudaDevAttrCanMapHostMemory:
    v = 1;
    break;
  case cudaDevAttrComputeMode:
    v = cudaComputeModeDefault;
    break;
  case cudaDevAttrConcurrentKernels:
    v = 1;
    break;
  case cudaDevAttrL2CacheSize:
    v = p.l2CacheSize;
    break;
  case cudaDevAttrMaxThreadsPerMultiProcessor:
    v = p.maxThreadsPerMultiProcessor;
    break;
  case cudaDevAttrAsyncEngineCount:
    v = p.asyncEngineCount;
    break;
  case cudaDevAttrUnifiedAddressing:
    v = 1;
    break;
  case cudaDevAttrComputeCapabilityMajor:
    v = p.major;
    break;
  case cudaDevAttrComputeCapabilityMinor:
    v = p.minor;
    break;
  case cudaDevAttrStreamPrioritiesSupported:
    v = 1;
    break;
  case cudaDevAttrGlobalL1CacheSupported:
    v = 1;
    break;
  case cudaDevAttrLocalL1CacheSupported:
    v = 1;
    break;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
    v = (int)p.sharedMemPerMultiprocessor;
    break;
  case cudaDevAttrMaxRegistersPerMultiprocessor:
    v = p.regsPerMultiprocessor;
    break;
  case cudaDevAttrManagedMemory:
    v = 1;
    break;
  case cudaDevAttrHostNativeAtomicSupported:
    v = 1;
    break;
  case cudaDevAttrConcurrentManagedAccess:
    v = 1;
    break;
  case cudaDevAttrCooperativeLaunch:
    v = 1; // cudaLaunchCooperativeKernel and grid.sync() (cooperative.cpp)
    break;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin:
    v = (int)p.sharedMemPerBlockOptin;
    break;
  case cudaDevAttrHostRegisterSupported:
    v = 1;
    break;
  case cudaDevAttrDirectManagedMemAccessFromHost:
    v = 1;
    break;
  case cudaDevAttrMaxBlocksPerMultiprocessor:
    v = p.maxBlocksPerMultiProcessor;
    break;
  case cudaDevAttrMemoryPoolsSupported:
    v = 1;
    break;
  case cudaDevAttrCanUseHostPointerForRegisteredMem:
    v = 1;
    break;
  default:
    v = 0;
    break;
  }
  *value = v;
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void) {
  sync_all();
  return set_error(sticky());
}
cudaError_t cudaDeviceReset(void) {
  run_queue();
  std::lock_guard<std::mutex> lock(mu);
  for (auto &kv : live) {
    if (kv.second.kind == mem_kind::device || kv.second.kind == mem_kind::managed ||
        kv.second.kind == mem_kind::pinned)
      raw_free((void *)kv.first);
  }
  live.clear();
  registered_pages.clear();
  freed.clear();
  freed_order.clear();
  sticky_error = cudaSuccess;
  last_error = cudaSuccess;
  return cudaSuccess;
}
cudaError_t cudaDeviceSetLimit(enum cudaLimit, size_t) {
  return cudaSuccess;
}
cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit) {
  if (!value) return set_error(cudaErrorInvalidValue);
  switch (limit) {
  case cudaLimitStackSize:
    *value = 1024;
    break;
  case cudaLimitPrintfFifoSize:
    *value = 1 << 20;
    break;
  case cudaLimitMallocHeapSize:
    *value = 8 << 20;
    break;
  default:
    *value = 0;
    break;
  }
  return cudaSuccess;
}
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache) {
  return cudaSuccess;
}
cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority) {
  if (leastPriority) *leastPriority = 0;
  if (greatestPriority) *greatestPriority = -5;
  return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int *v) {
  if (!v) return set_error(cudaErrorInvalidValue);
  *v = CUDART_VERSION;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int *v) {
  if (!v) return set_error(cudaErrorInvalidValue);
  *v = CUDART_VERSION;
  return cudaSuccess;
}
cudaError_t cudaProfilerStart(void) {
  return cudaSuccess;
}
cudaError_t cudaProfilerStop(void) {
  return cudaSuccess;
}

// ---- memory ----

static cudaError_t alloc_common(void **ptr, size_t size, mem_kind kind, unsigned flags,
                                const char *api) {
  if (!ptr) {
    report("%s: the pointer to store the address in is null", api);
    return set_error(cudaErrorInvalidValue);
  }
  {
    std::lock_guard<std::mutex> lock(mu);
    CUSIM_CHECK_STICKY();
  }
  if (size > physical_memory()) {
    *ptr = nullptr;
    return set_error(cudaErrorMemoryAllocation);
  }
  void *p = raw_alloc(size);
  if (!p) {
    *ptr = nullptr;
    return set_error(cudaErrorMemoryAllocation);
  }
#if defined(CUSIM_ASAN)
  // CUDA frees what a program did not at exit (context teardown): not a leak to report.
  __lsan_ignore_object(p);
#endif
  std::lock_guard<std::mutex> lock(mu);
  add_live(p, size, kind, flags);
  *ptr = p;
  return cudaSuccess;
}

cudaError_t cudaMalloc(void **devPtr, size_t size) {
  return alloc_common(devPtr, size, mem_kind::device, 0, "cudaMalloc");
}
cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags) {
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)
    return set_error(cudaErrorInvalidValue);
  return alloc_common(devPtr, size, mem_kind::managed, flags, "cudaMallocManaged");
}
cudaError_t cudaMallocHost(void **ptr, size_t size) {
  return alloc_common(ptr, size, mem_kind::pinned, 0, "cudaMallocHost");
}
cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags) {
  if (flags & ~0x7u) return set_error(cudaErrorInvalidValue);
  return alloc_common(pHost, size, mem_kind::pinned, flags, "cudaHostAlloc");
}
cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height) {
  if (!pitch) return set_error(cudaErrorInvalidValue);
  size_t p = (width + 511) / 512 * 512;
  if (p == 0) p = 512;
  *pitch = p;
  return alloc_common(devPtr, p * height, mem_kind::device, 0, "cudaMallocPitch");
}

static cudaError_t free_common(void *ptr, const char *api, bool want_host) {
  if (ptr == nullptr) return cudaSuccess;
  sync_all();
  std::lock_guard<std::mutex> lock(mu);
  CUSIM_CHECK_STICKY();
  uintptr_t a = (uintptr_t)ptr;
  auto it = live.find(a);
  if (it == live.end()) {
    lookup l = find_locked(ptr);
    if (l.live)
      report("%s(%p): the pointer is inside an allocation (%zu bytes at %p), not its start", api,
             ptr, l.size, (void *)l.base);
    else if (l.freed)
      report("%s(%p): this memory was already freed (freed twice?)", api, ptr);
    else
      report("%s(%p): the pointer was never returned by %s", api, ptr,
             want_host ? "cudaMallocHost/cudaHostAlloc" : "cudaMalloc/cudaMallocManaged");
    return set_error(cudaErrorInvalidValue);
  }
  mem_kind k = it->second.kind;
  bool is_host = k == mem_kind::pinned;
  if (k == mem_kind::registered || k == mem_kind::symbol || is_host != want_host) {
    report("%s(%p): the pointer is %s memory; free it with %s", api, ptr, kind_name(k),
           k == mem_kind::pinned       ? "cudaFreeHost"
           : k == mem_kind::registered ? "cudaHostUnregister (then free it as it was allocated)"
           : k == mem_kind::symbol     ? "nothing (it is a __device__ variable)"
                                       : "cudaFree");
    return set_error(cudaErrorInvalidValue);
  }
  if (k == mem_kind::pool) {
    // cudaFree synchronizes first, so the block is idle at once.
    cudaMemPool_t pool = it->second.pool;
    size_t got = it->second.flags;
    uint64_t serial = pool_free_locked(ptr);
    pool_free_completed_locked(pool, ptr, got, serial);
    return cudaSuccess;
  }
  remember_freed(a, it->second);
  live.erase(it);
  raw_free(ptr);
  return cudaSuccess;
}
cudaError_t cudaFree(void *devPtr) {
  return free_common(devPtr, "cudaFree", false);
}
cudaError_t cudaFreeHost(void *ptr) {
  return free_common(ptr, "cudaFreeHost", true);
}

cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags) {
  if (!ptr || size == 0 || (flags & ~0xFu)) return set_error(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(mu);
  CUSIM_CHECK_STICKY();
  lookup l = find_locked(ptr);
  if (l.live) {
    report("cudaHostRegister(%p): the range is already registered or allocated by CUDA", ptr);
    return set_error(cudaErrorHostMemoryAlreadyRegistered);
  }
  const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  uintptr_t first = (uintptr_t)ptr / page * page;
  uintptr_t end = ((uintptr_t)ptr + size + page - 1) / page * page;
  auto next = registered_pages.lower_bound(first);
  bool overlaps = next != registered_pages.end() && next->first < end;
  if (next != registered_pages.begin() && std::prev(next)->second > first) overlaps = true;
  if (overlaps) {
    report("cudaHostRegister(%p, %zu): shares a %zu-byte page with memory registered before "
           "(the driver pins whole pages)",
           ptr, size, (size_t)page);
    return set_error(cudaErrorHostMemoryAlreadyRegistered);
  }
  registered_pages[first] = end;
  add_live(ptr, size, mem_kind::registered, flags);
  return cudaSuccess;
}
cudaError_t cudaHostUnregister(void *ptr) {
  std::lock_guard<std::mutex> lock(mu);
  CUSIM_CHECK_STICKY();
  auto it = live.find((uintptr_t)ptr);
  if (it == live.end() || it->second.kind != mem_kind::registered) {
    report("cudaHostUnregister(%p): the pointer was not registered with cudaHostRegister", ptr);
    return set_error(cudaErrorHostMemoryNotRegistered);
  }
  const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  registered_pages.erase((uintptr_t)ptr / page * page);
  live.erase(it);
  return cudaSuccess;
}
cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags) {
  if (!pDevice || flags != 0) return set_error(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(mu);
  lookup l = find_locked(pHost);
  if (!l.live || (l.kind != mem_kind::pinned && l.kind != mem_kind::registered &&
                  l.kind != mem_kind::managed)) {
    report("cudaHostGetDevicePointer(%p): not memory from cudaHostAlloc/cudaMallocHost or "
           "cudaHostRegister",
           pHost);
    return set_error(cudaErrorInvalidValue);
  }
  *pDevice = pHost; // unified addressing: the same address
  return cudaSuccess;
}
cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost) {
  std::lock_guard<std::mutex> lock(mu);
  lookup l = find_locked(pHost);
  if (!pFlags || !l.live || l.kind != mem_kind::pinned) return set_error(cudaErrorInvalidValue);
  *pFlags = live[l.base].flags;
  return cudaSuccess;
}
cudaError_t cudaMemGetInfo(size_t *freeBytes, size_t *total) {
  if (!freeBytes || !total) return set_error(cudaErrorInvalidValue);
  *total = physical_memory();
  *freeBytes = available_memory();
  return cudaSuccess;
}
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *a, const void *ptr) {
  if (!a) return set_error(cudaErrorInvalidValue);
  std::memset(a, 0, sizeof *a);
  lookup l = find(ptr);
  a->device = 0;
  if (!l.live) {
    a->type = cudaMemoryTypeUnregistered;
    a->device = -2;
    return cudaSuccess;
  }
  switch (l.kind) {
  case mem_kind::device:
  case mem_kind::pool:
  case mem_kind::symbol:
    a->type = cudaMemoryTypeDevice;
    a->devicePointer = (void *)ptr;
    break;
  case mem_kind::managed:
    a->type = cudaMemoryTypeManaged;
    a->devicePointer = a->hostPointer = (void *)ptr;
    break;
  case mem_kind::pinned:
  case mem_kind::registered:
    a->type = cudaMemoryTypeHost;
    a->devicePointer = a->hostPointer = (void *)ptr;
    break;
  }
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
  sync_blocking();
  if (sticky() != cudaSuccess) return set_error(sticky());
  cudaError_t e = check_copy("cudaMemcpy", dst, src, count, kind);
  if (e != cudaSuccess) return set_error(e);
  if (count) std::memmove(dst, src, count);
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream) {
  if (sticky() != cudaSuccess) return set_error(sticky());
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  cudaError_t e = check_copy("cudaMemcpyAsync", dst, src, count, kind);
  if (e != cudaSuccess) return set_error(e);
  char what[64];
  std::snprintf(what, sizeof what, "cudaMemcpyAsync(%s)", kind_text(kind));
  enqueue(stream,
          [=] {
            if (sticky() == cudaSuccess && count) std::memmove(dst, src, count);
          },
          what, {mem_access{src, count, false}, mem_access{dst, count, true}});
  return set_error(sticky()); // a stream race is reported at once
}
static cudaError_t copy2d(const char *api, void *dst, size_t dpitch, const void *src, size_t spitch,
                          size_t width, size_t height, enum cudaMemcpyKind kind, bool async,
                          cudaStream_t stream) {
  if (width > dpitch || width > spitch) {
    report("%s: width %zu is larger than a pitch (dpitch %zu, spitch %zu)", api, width, dpitch,
           spitch);
    return set_error(cudaErrorInvalidPitchValue);
  }
  if (height == 0 || width == 0) return cudaSuccess;
  if (!async) sync_blocking();
  if (sticky() != cudaSuccess) return set_error(sticky());
  cudaError_t e = check_copy(api, dst, src, dpitch * (height - 1) + width, kind);
  if (e == cudaSuccess) e = check_copy(api, dst, src, 0, kind);
  size_t send = spitch * (height - 1) + width;
  (void)send;
  if (e != cudaSuccess) return set_error(e);
  auto op = [=] {
    for (size_t r = 0; r < height; ++r)
      std::memmove((char *)dst + r * dpitch, (const char *)src + r * spitch, width);
  };
  if (async) {
    // The ranges from the first row to the end of the last: stricter than the rows alone.
    enqueue(stream, op, api,
            {mem_access{src, spitch * (height - 1) + width, false},
             mem_access{dst, dpitch * (height - 1) + width, true}});
    return set_error(sticky());
  } else
    op();
  return cudaSuccess;
}
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, enum cudaMemcpyKind kind) {
  return copy2d("cudaMemcpy2D", dst, dpitch, src, spitch, width, height, kind, false, nullptr);
}
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind kind,
                              cudaStream_t stream) {
  return copy2d("cudaMemcpy2DAsync", dst, dpitch, src, spitch, width, height, kind, true, stream);
}
cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count) {
  if (dstDevice != 0 || srcDevice != 0) return set_error(cudaErrorInvalidDevice);
  return cudaMemcpy(dst, src, count, cudaMemcpyDeviceToDevice);
}

static cudaError_t check_set(const char *api, void *p, size_t count) {
  if (count == 0) return cudaSuccess;
  std::lock_guard<std::mutex> lock(mu);
  lookup l = find_locked(p);
  if (l.live && l.kind != mem_kind::pinned && l.kind != mem_kind::registered) {
    if ((uintptr_t)p + count > l.base + l.size) {
      report(
          "%s: the range [%p, +%zu bytes) runs past the end of its allocation of %zu bytes at %p",
          api, p, count, l.size, (void *)l.base);
      return cudaErrorInvalidValue;
    }
    return cudaSuccess;
  }
  if (l.freed && !l.live)
    report("%s: %p is in device memory that was already freed", api, p);
  else
    report(
        "%s: %p is not device memory (cudaMemset sets device memory; use memset for host memory)",
        api, p);
  return cudaErrorInvalidValue;
}
cudaError_t cudaMemset(void *devPtr, int value, size_t count) {
  sync_blocking();
  if (sticky() != cudaSuccess) return set_error(sticky());
  cudaError_t e = check_set("cudaMemset", devPtr, count);
  if (e != cudaSuccess) return set_error(e);
  if (count) std::memset(devPtr, value, count);
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream) {
  if (sticky() != cudaSuccess) return set_error(sticky());
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  cudaError_t e = check_set("cudaMemsetAsync", devPtr, count);
  if (e != cudaSuccess) return set_error(e);
  enqueue(stream,
          [=] {
            if (sticky() == cudaSuccess && count) std::memset(devPtr, value, count);
          },
          "cudaMemsetAsync", {mem_access{devPtr, count, true}});
  return set_error(sticky());
}
cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height) {
  if (width > pitch) return set_error(cudaErrorInvalidPitchValue);
  if (height == 0 || width == 0) return cudaSuccess;
  sync_blocking();
  cudaError_t e = check_set("cudaMemset2D", devPtr, pitch * (height - 1) + width);
  if (e != cudaSuccess) return set_error(e);
  for (size_t r = 0; r < height; ++r) std::memset((char *)devPtr + r * pitch, value, width);
  return cudaSuccess;
}
cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location,
                                 unsigned int, cudaStream_t stream) {
  if (sticky() != cudaSuccess) return set_error(sticky());
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  if (location.type == cudaMemLocationTypeDevice && location.id != 0)
    return set_error(cudaErrorInvalidDevice);
  lookup l = find(devPtr);
  if (!l.live || l.kind != mem_kind::managed || (uintptr_t)devPtr + count > l.base + l.size) {
    report("cudaMemPrefetchAsync(%p, %zu): not a range of managed memory (cudaMallocManaged)",
           devPtr, count);
    return set_error(cudaErrorInvalidValue);
  }
  return cudaSuccess; // host and device share the memory: nothing to move
}
cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise,
                          struct cudaMemLocation) {
  lookup l = find(devPtr);
  if (!l.live || l.kind != mem_kind::managed || (uintptr_t)devPtr + count > l.base + l.size) {
    report("cudaMemAdvise(%p, %zu): not a range of managed memory (cudaMallocManaged)", devPtr,
           count);
    return set_error(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

// ---- symbols ----

static cudaError_t symbol_range(const char *api, const void *symbol, size_t count, size_t offset) {
  lookup l = find(symbol);
  if (!l.live ||
      (l.kind != mem_kind::symbol && l.kind != mem_kind::device && l.kind != mem_kind::managed)) {
    report("%s: %p is not a __device__ or __constant__ variable", api, symbol);
    return cudaErrorInvalidSymbol;
  }
  if ((uintptr_t)symbol + offset + count > l.base + l.size) {
    report("%s: %zu bytes at offset %zu run past the end of the symbol (%zu bytes)", api, count,
           offset, l.size);
    return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               enum cudaMemcpyKind kind) {
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault)
    return set_error(cudaErrorInvalidMemcpyDirection);
  cudaError_t e = symbol_range("cudaMemcpyToSymbol", symbol, count, offset);
  if (e != cudaSuccess) return set_error(e);
  sync_blocking();
  if (sticky() != cudaSuccess) return set_error(sticky());
  std::memmove((char *)symbol + offset, src, count);
  return cudaSuccess;
}
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind) {
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault)
    return set_error(cudaErrorInvalidMemcpyDirection);
  cudaError_t e = symbol_range("cudaMemcpyFromSymbol", symbol, count, offset);
  if (e != cudaSuccess) return set_error(e);
  sync_blocking();
  if (sticky() != cudaSuccess) return set_error(sticky());
  std::memmove(dst, (const char *)symbol + offset, count);
  return cudaSuccess;
}
cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                    size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream) {
  cudaError_t e = symbol_range("cudaMemcpyToSymbolAsync", symbol, count, offset);
  if (e != cudaSuccess) return set_error(e);
  return cudaMemcpyAsync((char *)symbol + offset, src, count,
                         kind == cudaMemcpyHostToDevice ? cudaMemcpyDefault : kind, stream);
}
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind, cudaStream_t stream) {
  cudaError_t e = symbol_range("cudaMemcpyFromSymbolAsync", symbol, count, offset);
  if (e != cudaSuccess) return set_error(e);
  return cudaMemcpyAsync(dst, (const char *)symbol + offset, count,
                         kind == cudaMemcpyDeviceToHost ? cudaMemcpyDefault : kind, stream);
}
cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol) {
  if (!devPtr) return set_error(cudaErrorInvalidValue);
  cudaError_t e = symbol_range("cudaGetSymbolAddress", symbol, 0, 0);
  if (e != cudaSuccess) return set_error(e);
  *devPtr = (void *)symbol;
  return cudaSuccess;
}
cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol) {
  if (!size) return set_error(cudaErrorInvalidValue);
  lookup l = find(symbol);
  if (!l.live || l.kind != mem_kind::symbol) return set_error(cudaErrorInvalidSymbol);
  *size = l.size;
  return cudaSuccess;
}

// ---- pools ----

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device) {
  if (!memPool) return set_error(cudaErrorInvalidValue);
  if (device != 0) return set_error(cudaErrorInvalidDevice);
  *memPool = default_pool();
  return cudaSuccess;
}
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device) {
  if (!memPool) return set_error(cudaErrorInvalidValue);
  if (device != 0) return set_error(cudaErrorInvalidDevice);
  std::lock_guard<std::mutex> lock(mu);
  *memPool = current_pool ? current_pool : default_pool();
  return cudaSuccess;
}
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool) {
  if (device != 0) return set_error(cudaErrorInvalidDevice);
  std::lock_guard<std::mutex> lock(mu);
  if (!valid_pool(memPool)) return set_error(cudaErrorInvalidValue);
  current_pool = memPool;
  return cudaSuccess;
}
cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *props) {
  if (!memPool || !props) return set_error(cudaErrorInvalidValue);
  if (props->allocType != cudaMemAllocationTypePinned ||
      (props->location.type == cudaMemLocationTypeDevice && props->location.id != 0))
    return set_error(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(mu);
  cudaMemPool_t p = new CUmemPoolHandle_st;
#if defined(CUSIM_ASAN)
  __lsan_ignore_object(p); // destroyed pools are kept so their live blocks can name them
#endif
  pools.insert(p);
  *memPool = p;
  return cudaSuccess;
}
cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool) {
  std::lock_guard<std::mutex> lock(mu);
  if (memPool == default_pool() || !pools.count(memPool)) return set_error(cudaErrorInvalidValue);
  pool_trim(memPool, 0, trim_rule::release_down_to);
  pools.erase(memPool);
  if (current_pool == memPool) current_pool = nullptr;
  // Blocks still in use stay valid until freed; the handle is kept (leaked) so they can name it.
  return cudaSuccess;
}
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value) {
  if (!value) return set_error(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(mu);
  if (!valid_pool(memPool)) return set_error(cudaErrorInvalidValue);
  switch (attr) {
  case cudaMemPoolAttrReleaseThreshold:
    memPool->release_threshold = (size_t) * (uint64_t *)value;
    return cudaSuccess;
  case cudaMemPoolAttrReservedMemHigh:
    if (*(uint64_t *)value != 0) return set_error(cudaErrorInvalidValue);
    memPool->reserved_high = memPool->reserved;
    return cudaSuccess;
  case cudaMemPoolAttrUsedMemHigh:
    if (*(uint64_t *)value != 0) return set_error(cudaErrorInvalidValue);
    memPool->used_high = memPool->used;
    return cudaSuccess;
  case cudaMemPoolReuseFollowEventDependencies:
  case cudaMemPoolReuseAllowOpportunistic:
  case cudaMemPoolReuseAllowInternalDependencies:
    return cudaSuccess;
  default:
    return set_error(cudaErrorInvalidValue);
  }
}
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value) {
  if (!value) return set_error(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(mu);
  if (!valid_pool(memPool)) return set_error(cudaErrorInvalidValue);
  switch (attr) {
  case cudaMemPoolAttrReleaseThreshold:
    *(uint64_t *)value = memPool->release_threshold;
    return cudaSuccess;
  case cudaMemPoolAttrReservedMemCurrent:
    *(uint64_t *)value = memPool->reserved;
    return cudaSuccess;
  case cudaMemPoolAttrReservedMemHigh:
    *(uint64_t *)value = memPool->reserved_high;
    return cudaSuccess;
  case cudaMemPoolAttrUsedMemCurrent:
    *(uint64_t *)value = memPool->used;
    return cudaSuccess;
  case cudaMemPoolAttrUsedMemHigh:
    *(uint64_t *)value = memPool->used_high;
    return cudaSuccess;
  case cudaMemPoolReuseFollowEventDependencies:
  case cudaMemPoolReuseAllowOpportunistic:
  case cudaMemPoolReuseAllowInternalDependencies:
    *(int *)value = 1;
    return cudaSuccess;
  default:
    return set_error(cudaErrorInvalidValue);
  }
}
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep) {
  std::lock_guard<std::mutex> lock(mu);
  if (!valid_pool(memPool)) return set_error(cudaErrorInvalidValue);
  pool_trim(memPool, minBytesToKeep, trim_rule::keep_at_least);
  return cudaSuccess;
}
cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool,
                                    cudaStream_t stream) {
  if (!ptr) return set_error(cudaErrorInvalidValue);
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  std::lock_guard<std::mutex> lock(mu);
  CUSIM_CHECK_STICKY();
  if (!valid_pool(memPool)) return set_error(cudaErrorInvalidValue);
  point after;
  cudaError_t e = pool_alloc(ptr, size, memPool, &after);
  if (e == cudaSuccess && after.seq) wait_point(stream, after);
  return set_error(e);
}
cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream) {
  cudaMemPool_t p;
  cudaDeviceGetMemPool(&p, 0);
  return cudaMallocFromPoolAsync(devPtr, size, p, stream);
}
cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream) {
  if (devPtr == nullptr) return cudaSuccess;
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  std::lock_guard<std::mutex> lock(mu);
  CUSIM_CHECK_STICKY();
  auto it = live.find((uintptr_t)devPtr);
  if (it == live.end() ||
      (it->second.kind != mem_kind::pool && it->second.kind != mem_kind::device)) {
    lookup l = find_locked(devPtr);
    if (l.freed && !l.live)
      report("cudaFreeAsync(%p): this memory was already freed (freed twice?)", devPtr);
    else
      report("cudaFreeAsync(%p): the pointer was never returned by cudaMallocAsync or cudaMalloc",
             devPtr);
    return set_error(cudaErrorInvalidValue);
  }
  bool pooled = it->second.kind == mem_kind::pool;
  cudaMemPool_t pool = it->second.pool;
  size_t got = it->second.flags;
  size_t size = it->second.size;
  uint64_t serial = pooled ? pool_free_locked(devPtr) : 0;
  point freed_at = enqueue(stream, [devPtr, pooled, pool, got, serial] {
    std::lock_guard<std::mutex> l2(mu);
    if (pooled) {
      pool_free_completed_locked(pool, devPtr, got, serial);
    } else {
      auto i2 = live.find((uintptr_t)devPtr);
      if (i2 != live.end()) {
        remember_freed(i2->first, i2->second);
        live.erase(i2);
        raw_free(devPtr);
      }
    }
  });
  if (pooled) {
    auto range = pool->pending_blocks.equal_range(got);
    for (auto b = range.first; b != range.second; ++b)
      if (b->second.ptr == devPtr && b->second.free_serial == serial) b->second.freed_at = freed_at;
  }
  forget_accesses(devPtr, size); // a reuse is ordered after this free
  return cudaSuccess;
}

// ---- streams ----

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority) {
  if (!pStream || flags > 1) return set_error(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(mu);
  CUSIM_CHECK_STICKY();
  cudaStream_t s = new CUstream_st{flags, priority};
#if defined(CUSIM_ASAN)
  __lsan_ignore_object(s); // as on a GPU, an undestroyed stream goes away with the process
#endif
  streams.insert(s);
  stream_created(s, flags);
  *pStream = s;
  return cudaSuccess;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags) {
  return cudaStreamCreateWithPriority(pStream, flags, 0);
}
cudaError_t cudaStreamCreate(cudaStream_t *pStream) {
  return cudaStreamCreateWithPriority(pStream, 0, 0);
}
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  if (stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread)
    return set_error(cudaErrorInvalidResourceHandle);
  std::lock_guard<std::mutex> lock(mu);
  if (!streams.erase(stream)) {
    report("cudaStreamDestroy(%p): not a live stream (destroyed twice?)", (void *)stream);
    return set_error(cudaErrorInvalidResourceHandle);
  }
  // Work already queued on it still runs (CUDA finishes it); the handle is freed now.
  stream_destroyed(stream);
  delete stream;
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  sync_stream(stream);
  after_sync();
  return set_error(sticky());
}
cudaError_t cudaStreamQuery(cudaStream_t stream) {
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  cudaError_t e = query_stream(stream);
  if (sticky() != cudaSuccess) return set_error(sticky());
  return e;
}
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int) {
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  std::lock_guard<std::mutex> lock(mu);
  if (!events.count(event)) return set_error(cudaErrorInvalidResourceHandle);
  wait_event(stream, event); // later work on the stream comes after the record
  return cudaSuccess;
}
cudaError_t cudaStreamGetPriority(cudaStream_t s, int *priority) {
  if (!priority || !valid_stream(s)) return set_error(cudaErrorInvalidValue);
  *priority = (s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread) ? 0 : s->priority;
  return cudaSuccess;
}
cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned int *flags) {
  if (!flags || !valid_stream(s)) return set_error(cudaErrorInvalidValue);
  *flags = (s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread) ? 0 : s->flags;
  return cudaSuccess;
}
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData) {
  if (!fn) return set_error(cudaErrorInvalidValue);
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  host_function_queued(enqueue(stream, [fn, userData] { // fires without a host wait (issue 18)
    if (sticky() == cudaSuccess) fn(userData);
  }));
  return cudaSuccess;
}
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                  void *userData, unsigned int flags) {
  if (!callback || flags != 0) return set_error(cudaErrorInvalidValue);
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  host_function_queued(enqueue( // fires without a host wait (issue 18)
      stream, [stream, callback, userData] { callback(stream, sticky(), userData); }));
  return cudaSuccess;
}

// ---- events ----

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags) {
  if (!event || (flags & ~0x7u)) return set_error(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(mu);
  CUSIM_CHECK_STICKY();
  cudaEvent_t e = new CUevent_st{flags, false, false, 0};
#if defined(CUSIM_ASAN)
  __lsan_ignore_object(e); // as on a GPU, an undestroyed event goes away with the process
#endif
  events.insert(e);
  *event = e;
  return cudaSuccess;
}
cudaError_t cudaEventCreate(cudaEvent_t *event) {
  return cudaEventCreateWithFlags(event, 0);
}
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int) {
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  std::lock_guard<std::mutex> lock(mu);
  CUSIM_CHECK_STICKY();
  if (!events.count(event)) {
    report("cudaEventRecord(%p): not a live event (created with cudaEventCreate?)", (void *)event);
    return set_error(cudaErrorInvalidResourceHandle);
  }
  event->recorded = true;
  event->completed = false;
  // The timestamp is taken when the queue reaches the record, so that events time the work.
  event_recorded(event, enqueue(stream, [event] {
                   std::lock_guard<std::mutex> l2(mu);
                   if (events.count(event)) {
                     event->ns = now_ns();
                     event->completed = true;
                   }
                 }));
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  return cudaEventRecordWithFlags(event, stream, 0);
}
cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  {
    std::lock_guard<std::mutex> lock(mu);
    if (!events.count(event)) return set_error(cudaErrorInvalidResourceHandle);
  }
  sync_event(event);
  after_sync();
  return set_error(sticky());
}
cudaError_t cudaEventQuery(cudaEvent_t event) {
  {
    std::lock_guard<std::mutex> lock(mu);
    if (!events.count(event)) return set_error(cudaErrorInvalidResourceHandle);
  }
  cudaError_t e = query_event(event);
  if (sticky() != cudaSuccess) return set_error(sticky());
  return e;
}
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms) return set_error(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(mu);
  CUSIM_CHECK_STICKY();
  if (!events.count(start) || !events.count(end)) return set_error(cudaErrorInvalidResourceHandle);
  if ((start->flags | end->flags) & cudaEventDisableTiming)
    return set_error(cudaErrorInvalidResourceHandle);
  if (!start->recorded || !end->recorded) return set_error(cudaErrorInvalidResourceHandle);
  if (!start->completed || !end->completed) return set_error(cudaErrorNotReady);
  *ms = (float)((double)((int64_t)end->ns - (int64_t)start->ns) / 1e6);
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  std::lock_guard<std::mutex> lock(mu);
  if (!events.erase(event)) {
    report("cudaEventDestroy(%p): not a live event (destroyed twice?)", (void *)event);
    return set_error(cudaErrorInvalidResourceHandle);
  }
  // A record still in the queue checks events before touching it, so the event can go now.
  event_forgotten(event);
  delete event;
  return cudaSuccess;
}

// ---- kernels ----

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func) {
  if (!attr || !func) return set_error(cudaErrorInvalidDeviceFunction);
  std::memset(attr, 0, sizeof *attr);
  attr->maxThreadsPerBlock = 1024;
  attr->numRegs = 32;
  attr->ptxVersion = 90;
  attr->binaryVersion = 90;
  std::lock_guard<std::mutex> lock(mu);
  auto it = func_max_dynamic_shared.find(func);
  attr->maxDynamicSharedSizeBytes = it != func_max_dynamic_shared.end() ? it->second : 48 * 1024;
  attr->preferredShmemCarveout = -1;
  return cudaSuccess;
}
cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value) {
  if (!func) return set_error(cudaErrorInvalidDeviceFunction);
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
    if (value < 0 || value > 227 * 1024) return set_error(cudaErrorInvalidValue);
    std::lock_guard<std::mutex> lock(mu);
    func_max_dynamic_shared[func] = value;
  }
  return cudaSuccess;
}
cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache) {
  if (!func) return set_error(cudaErrorInvalidDeviceFunction);
  return cudaSuccess;
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func,
                                                                   int blockSize,
                                                                   size_t dynamicSMemSize,
                                                                   unsigned int) {
  if (!numBlocks || blockSize <= 0) return set_error(cudaErrorInvalidValue);
  (void)func;
  if (blockSize > 1024) {
    *numBlocks = 0;
    return cudaSuccess;
  }
  // The simulated multiprocessor: 2048 threads, 32 blocks, 228 KiB of shared memory; warps are
  // allocated whole.
  int warps = (blockSize + 31) / 32;
  int by_threads = 64 / warps;
  int by_blocks = 32;
  int by_shared = dynamicSMemSize ? (int)((228 * 1024) / (dynamicSMemSize + 1024)) : 32;
  *numBlocks = std::max(0, std::min(by_threads, std::min(by_blocks, by_shared)));
  return cudaSuccess;
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                          int blockSize, size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize,
                                                                dynamicSMemSize, 0);
}

} // extern "C"
