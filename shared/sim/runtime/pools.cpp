// The runtime API's stream-ordered memory pools: cudaMallocAsync, cudaFreeAsync, cudaMemPool*.
// A block freed in stream order may be reused at once by a later allocation, which then waits for
// that free (the driver's internal dependencies).
#include "api_state.hpp"

#include <algorithm>

namespace cusim {
namespace rt {
namespace {
std::set<cudaMemPool_t> pools;
CUmemPoolHandle_st default_pool_obj;
cudaMemPool_t current_pool = nullptr;

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
} // namespace

namespace api {
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

void after_sync() {
  std::lock_guard<std::mutex> lock(mu);
  pools_at_sync();
}
} // namespace api

namespace {

bool valid_pool(cudaMemPool_t p) {
  return p == default_pool() || pools.count(p) != 0;
}

} // namespace
} // namespace rt
} // namespace cusim

using namespace cusim::rt;
using cusim::rt::set_error;

extern "C" {

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
  creation_site here(__builtin_return_address(0)); // (cudaMallocAsync set its own)
  if (!ptr) return set_error(cudaErrorInvalidValue);
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  std::lock_guard<std::mutex> lock(mu);
  CUSIM_CHECK_STICKY();
  if (!valid_pool(memPool)) return set_error(cudaErrorInvalidValue);
  point after;
  cudaError_t e = pool_alloc(ptr, size, memPool, &after);
  alloc_site = nullptr;
  if (e == cudaSuccess && after.seq) wait_point(stream, after);
  return set_error(e);
}
cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream) {
  creation_site here(__builtin_return_address(0));
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

} // extern "C"
