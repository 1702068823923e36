// The runtime API's memory: the registry of allocations (which allocation an address is in, what
// was freed), device, managed and pinned memory, host registration, copies, memsets, symbols.
#include "api_state.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cusim {
namespace rt {
namespace api {
std::map<uintptr_t, allocation> live;  // base -> allocation
std::map<uintptr_t, allocation> freed; // recently freed, for "already freed" messages
std::deque<uintptr_t> freed_order;

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

void add_live(void *p, size_t size, mem_kind kind, unsigned flags, cudaMemPool_t pool) {
  uintptr_t a = (uintptr_t)p;
  freed.erase(a);
  live[a] = allocation{size, kind, flags, pool, alloc_site};
  alloc_site = nullptr;
  watch_for_leaks();
}

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
} // namespace api

namespace {

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

} // namespace

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
  if (above != live.begin()) {
    auto below = std::prev(above);
    if (a - below->first < below->second.size) { // inside a live block
      take(below, 0);
      return r;
    }
  }
  // Inside a block freed not long ago (the memory checker's use after free): that one, not the
  // nearest live block, is what the access meant.
  auto ft = freed.upper_bound(a);
  if (ft != freed.begin()) {
    --ft;
    if (a - ft->first < std::max<size_t>(ft->second.size, 1)) {
      r.freed = true;
      r.kind = ft->second.kind;
      r.base = ft->first;
      r.size = ft->second.size;
      return r;
    }
  }
  if (above != live.end()) take(above, above->first - a);
  if (above != live.begin()) {
    auto below = std::prev(above);
    uintptr_t end = below->first + below->second.size;
    take(below, a < end ? 0 : a - end);
  }
  return r;
}

} // namespace rt
} // namespace cusim

using namespace cusim::rt;
using cusim::rt::set_error;

extern "C" {

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
  creation_site here(__builtin_return_address(0));
  cudaError_t refused;
  if (captures_active.load() != 0 && capture_prohibits("cudaMalloc", &refused))
    return set_error(refused);
  return alloc_common(devPtr, size, mem_kind::device, 0, "cudaMalloc");
}
cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags) {
  creation_site here(__builtin_return_address(0));
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)
    return set_error(cudaErrorInvalidValue);
  return alloc_common(devPtr, size, mem_kind::managed, flags, "cudaMallocManaged");
}
cudaError_t cudaMallocHost(void **ptr, size_t size) {
  alloc_site = nullptr; // host memory: not listed
  return alloc_common(ptr, size, mem_kind::pinned, 0, "cudaMallocHost");
}
cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags) {
  alloc_site = nullptr;
  if (flags & ~0x7u) return set_error(cudaErrorInvalidValue);
  return alloc_common(pHost, size, mem_kind::pinned, flags, "cudaHostAlloc");
}
cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height) {
  creation_site here(__builtin_return_address(0));
  if (!pitch) return set_error(cudaErrorInvalidValue);
  size_t p = (width + 511) / 512 * 512;
  if (p == 0) p = 512;
  *pitch = p;
  return alloc_common(devPtr, p * height, mem_kind::device, 0, "cudaMallocPitch");
}

static cudaError_t free_common(void *ptr, const char *api, bool want_host) {
  if (ptr == nullptr) return cudaSuccess;
  sync_all();
  if (!want_host && graph_block_at(ptr))
    return set_error(graph_memory_free(ptr, api, false, nullptr));
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
    uint64_t serial = pool_free_locked(ptr);
    pool_free_completed_locked(pool, ptr, serial);
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

// The live allocation or registered range with a byte in [a, a + size), or live.end(). Live
// entries do not overlap one another, so only the last entry that starts before the end, and the
// empty ones just before it, can.
static std::map<uintptr_t, allocation>::iterator overlapping_locked(uintptr_t a, size_t size) {
  auto it = live.lower_bound(a + size);
  while (it != live.begin()) {
    --it;
    if (it->second.size == 0) continue; // an empty allocation has no byte to share
    return it->first + it->second.size > a ? it : live.end();
  }
  return live.end();
}

// cudaHostRegister as the driver answers it (CUDA 13.0, driver 580, an H200: seen): it keeps byte
// ranges, not pages. Two arrays that share a page but no byte both register; a range with a byte
// registered (or allocated by CUDA) already is cudaErrorHostMemoryAlreadyRegistered.
cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags) {
  alloc_site = nullptr;
  if (!ptr || size == 0 || (flags & ~0xFu)) return set_error(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(mu);
  CUSIM_CHECK_STICKY();
  auto it = overlapping_locked((uintptr_t)ptr, size);
  if (it != live.end()) {
    if (it->second.kind == mem_kind::registered)
      report("cudaHostRegister(%p, %zu bytes): overlaps the %zu bytes at %p registered before "
             "(unregister them first)",
             ptr, size, it->second.size, (void *)it->first);
    else
      report("cudaHostRegister(%p, %zu bytes): overlaps %s memory (%zu bytes at %p) that CUDA "
             "already maps",
             ptr, size, kind_name(it->second.kind), it->second.size, (void *)it->first);
    return set_error(cudaErrorHostMemoryAlreadyRegistered);
  }
  add_live(ptr, size, mem_kind::registered, flags);
  return cudaSuccess;
}
// Unregistering takes the start of a registered range (as on a GPU: an address inside one is
// cudaErrorInvalidValue, an address in none cudaErrorHostMemoryNotRegistered).
cudaError_t cudaHostUnregister(void *ptr) {
  std::lock_guard<std::mutex> lock(mu);
  CUSIM_CHECK_STICKY();
  auto it = live.find((uintptr_t)ptr);
  if (it != live.end() && it->second.kind == mem_kind::registered) {
    live.erase(it);
    return cudaSuccess;
  }
  auto inside = overlapping_locked((uintptr_t)ptr, 1);
  if (inside != live.end() && inside->second.kind == mem_kind::registered) {
    report("cudaHostUnregister(%p): the address is inside the %zu bytes registered at %p, not "
           "their start",
           ptr, inside->second.size, (void *)inside->first);
    return set_error(cudaErrorInvalidValue);
  }
  report("cudaHostUnregister(%p): the pointer was not registered with cudaHostRegister", ptr);
  return set_error(cudaErrorHostMemoryNotRegistered);
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
  capturable_call capturable; // a capturing stream records it as a node
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
    capturable_call capturable; // a capturing stream records it as a node
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
// On device memory cudaMemset is asynchronous with respect to the host: an operation on the legacy
// default stream (after the blocking streams' earlier work, before their later work), run when
// something waits for it. A kernel on a cudaStreamNonBlocking stream is not ordered with it.
cudaError_t cudaMemset(void *devPtr, int value, size_t count) {
  if (sticky() != cudaSuccess) return set_error(sticky());
  cudaError_t e = check_set("cudaMemset", devPtr, count);
  if (e != cudaSuccess) return set_error(e);
  if (count == 0) return cudaSuccess;
  enqueue(nullptr,
          [=] {
            if (sticky() == cudaSuccess) std::memset(devPtr, value, count);
          },
          "cudaMemset", {mem_access{devPtr, count, true}});
  return set_error(sticky());
}
cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream) {
  capturable_call capturable; // a capturing stream records it as a node
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

} // extern "C"
