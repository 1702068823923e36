// The runtime API's stream-ordered memory pools: cudaMallocAsync, cudaFreeAsync, cudaMemPool*.
// A block freed in stream order may be reused at once by a later allocation, which then waits for
// that free (the driver's internal dependencies).
#include "api_state.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <vector>

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

constexpr size_t granule = size_t(32) << 20; // what a pool reserves at a time
constexpr size_t step = 512;                 // where blocks may start in it

size_t round_up(size_t n, size_t to) {
  return (n + to - 1) / to * to;
}

using block_state = CUmemPoolHandle_st::block_state;

// The block's memory goes back to the system (an idle block: its free has run).
void drop_block(cudaMemPool_t p, std::map<size_t, CUmemPoolHandle_st::block>::iterator it) {
#if defined(CUSIM_ASAN)
  __asan_unpoison_memory_region(it->second.ptr, it->second.capacity);
#endif
  live.erase((uintptr_t)it->second.ptr);
  raw_free(it->second.ptr);
  p->offset_of.erase(it->second.ptr);
  p->blocks.erase(it);
}

// The blocks that overlap [start, end), as [first, last).
std::pair<std::map<size_t, CUmemPoolHandle_st::block>::iterator,
          std::map<size_t, CUmemPoolHandle_st::block>::iterator>
blocks_in(cudaMemPool_t p, size_t start, size_t end) {
  auto first = p->blocks.lower_bound(start);
  if (first != p->blocks.begin()) {
    auto before = std::prev(first);
    if (before->first + before->second.length > start) first = before;
  }
  return {first, p->blocks.lower_bound(end)};
}

// A granule can go back to the system when no block in it is in use or has its free queued (a
// block whose cudaFreeAsync has not run may still be used by earlier work). A trim gives back
// whole granules, the last first: cudaMemPoolTrimTo keeps at least `keep` bytes reserved (so
// TrimTo(1.5 MiB) keeps a granule: seen on a GPU); the release threshold at a synchronization
// releases until at most `keep` bytes stay reserved (a threshold of 0.5 MiB leaves 0: seen).
enum class trim_rule { keep_at_least, release_down_to };
void pool_trim(cudaMemPool_t p, size_t keep, trim_rule rule) {
  for (auto g = p->granules.rbegin(); g != p->granules.rend();) {
    if (rule == trim_rule::keep_at_least ? p->reserved - granule < keep : p->reserved <= keep)
      return;
    size_t start = *g * granule;
    auto range = blocks_in(p, start, start + granule);
    bool idle = true;
    for (auto b = range.first; b != range.second && idle; ++b)
      idle = b->second.state == block_state::idle;
    if (!idle) {
      ++g;
      continue;
    }
    for (auto b = range.first; b != range.second;) drop_block(p, b++);
    p->reserved -= granule;
    g = decltype(g)(p->granules.erase(std::next(g).base()));
  }
}

void pools_at_sync() {
  pool_trim(default_pool(), default_pool()->release_threshold, trim_rule::release_down_to);
  for (cudaMemPool_t p : pools) pool_trim(p, p->release_threshold, trim_rule::release_down_to);
}

// Where a new block of `length` bytes goes: the first place, from the pool's start, that no block
// in use or queued covers and that lies in reserved granules; failing that, the first place free
// of such blocks at all (the end of the last one, if nothing before), and the granules it needs
// are reserved (a GPU: two blocks of 32 MiB + 1 byte reserve 64 MiB, then 96 MiB).
size_t pool_place(cudaMemPool_t p, size_t length) {
  std::vector<std::pair<size_t, size_t>> runs; // reserved granules, as runs [start, end)
  for (size_t g : p->granules) {
    if (!runs.empty() && runs.back().second == g * granule)
      runs.back().second += granule;
    else
      runs.emplace_back(g * granule, (g + 1) * granule);
  }
  std::vector<std::pair<size_t, size_t>> gaps; // not covered by a block in use or queued
  size_t gap_start = 0;
  for (const auto &kv : p->blocks) {
    if (kv.second.state == block_state::idle) continue;
    if (kv.first > gap_start) gaps.emplace_back(gap_start, kv.first);
    gap_start = kv.first + kv.second.length;
  }
  gaps.emplace_back(gap_start, SIZE_MAX);
  for (const auto &gap : gaps)
    for (const auto &run : runs) {
      size_t start = std::max(gap.first, run.first), end = std::min(gap.second, run.second);
      if (end > start && end - start >= length) return start;
    }
  for (const auto &gap : gaps)
    if (gap.second - gap.first >= length) return gap.first;
  return gap_start;
}

cudaError_t pool_alloc(void **ptr, size_t size, cudaMemPool_t p, point *after = nullptr) {
  size_t want = round_up(size ? size : 1, step);
  // A block given back before, as large or up to twice as large (its memory at least the size
  // asked), is taken again as it is: first one whose free has run, then one whose free is still
  // queued (the allocating stream then waits for that free, as the driver's internal dependencies
  // make it do).
  auto reusable = p->blocks.end();
  for (auto it = p->blocks.begin(); it != p->blocks.end(); ++it) {
    const auto &b = it->second;
    if (b.state == block_state::in_use || b.length < want || b.length > 2 * want ||
        b.capacity < size)
      continue;
    if (reusable == p->blocks.end() ||
        (b.state == block_state::idle && reusable->second.state == block_state::queued))
      reusable = it;
    if (b.state == block_state::idle) break;
  }
  void *block = nullptr;
  if (reusable != p->blocks.end()) {
    auto &b = reusable->second;
    block = b.ptr;
#if defined(CUSIM_ASAN)
    if (b.state == block_state::idle) __asan_unpoison_memory_region(block, b.capacity);
#endif
    // A queued block was never poisoned, and its queued free now finds it taken.
    if (b.state == block_state::queued && after) *after = b.freed_at;
    b.state = block_state::in_use;
  } else {
    size_t at = pool_place(p, want);
    // Its memory is as large as asked: the memory checker then catches a write past the end
    // that on a GPU would land in the block's padding (a stricter simulator).
    block = raw_alloc(size ? size : 1);
    if (!block) return cudaErrorMemoryAllocation;
#if defined(CUSIM_ASAN)
    __lsan_ignore_object(block);
#endif
    auto range = blocks_in(p, at, at + want); // only idle blocks: their memory goes back
    for (auto b = range.first; b != range.second;) drop_block(p, b++);
    for (size_t g = at / granule; g * granule < at + want; ++g)
      if (p->granules.insert(g).second) p->reserved += granule;
    p->reserved_high = std::max(p->reserved_high, p->reserved);
    p->blocks[at] =
        CUmemPoolHandle_st::block{want, size ? size : 1, block, block_state::in_use, 0, {}};
    p->offset_of[block] = at;
  }
  p->used += size; // the bytes asked for (a GPU: two 8-byte blocks, used 16)
  p->used_high = std::max(p->used_high, p->used);
  // The registry records the size asked for, so that copies past it are caught.
  add_live(block, size, mem_kind::pool, 0, p);
  *ptr = block;
  return cudaSuccess;
}

CUmemPoolHandle_st::block *find_block(cudaMemPool_t p, void *ptr) {
  auto at = p->offset_of.find(ptr);
  if (at == p->offset_of.end()) return nullptr;
  auto it = p->blocks.find(at->second);
  return it == p->blocks.end() ? nullptr : &it->second;
}

// At the cudaFreeAsync call: the block leaves the registry (later launches and copies that
// name it are errors) and becomes reusable by later allocations at once.
} // namespace

namespace api {
uint64_t pool_free_locked(void *ptr) {
  auto it = live.find((uintptr_t)ptr);
  if (it == live.end() || it->second.kind != mem_kind::pool) return 0;
  cudaMemPool_t p = it->second.pool;
  p->used -= it->second.size;
  remember_freed(it->first, it->second);
  live.erase(it);
  uint64_t serial = ++p->next_free_serial;
  if (CUmemPoolHandle_st::block *b = find_block(p, ptr)) {
    b->state = block_state::queued;
    b->free_serial = serial;
    b->freed_at = {};
  }
  return serial;
}

void pool_set_freed_at_locked(cudaMemPool_t p, void *ptr, uint64_t serial, const point &at) {
  CUmemPoolHandle_st::block *b = find_block(p, ptr);
  if (b && b->state == block_state::queued && b->free_serial == serial) b->freed_at = at;
}

// When the queue reaches the cudaFreeAsync: unless a later allocation took the block back
// already, it is now idle and its granules may return to the system.
void pool_free_completed_locked(cudaMemPool_t p, void *ptr, uint64_t serial) {
  CUmemPoolHandle_st::block *b = find_block(p, ptr);
  if (!b || b->state != block_state::queued || b->free_serial != serial) return;
  b->state = block_state::idle;
#if defined(CUSIM_ASAN)
  __asan_poison_memory_region(ptr, b->capacity); // use after cudaFreeAsync is reported
#endif
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
// Access to a pool from other devices (peer access). The simulator has one device, which owns
// every pool and always reads and writes it: that is the only access there is to set or get.
cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const struct cudaMemAccessDesc *descList,
                                 size_t count) {
  if (count > 0 && descList == nullptr) return set_error(cudaErrorInvalidValue);
  {
    std::lock_guard<std::mutex> lock(mu);
    if (!valid_pool(memPool)) return set_error(cudaErrorInvalidValue);
  }
  for (size_t k = 0; k < count; ++k) {
    const cudaMemAccessDesc &d = descList[k];
    if (d.location.type != cudaMemLocationTypeDevice) {
      report("cudaMemPoolSetAccess: access from the host to a device pool is not simulated");
      return set_error(cudaErrorNotSupported);
    }
    if (d.location.id != 0) {
      report("cudaMemPoolSetAccess: device %d does not exist (the simulator has one device, 0)",
             d.location.id);
      return set_error(cudaErrorInvalidValue); // the code CUDA documents for this call
    }
    if (d.flags != cudaMemAccessFlagsProtReadWrite) {
      report("cudaMemPoolSetAccess: device 0 owns the pool and keeps read-write access to it");
      return set_error(cudaErrorInvalidValue);
    }
  }
  return cudaSuccess;
}
cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool,
                                 struct cudaMemLocation *location) {
  if (flags == nullptr || location == nullptr) return set_error(cudaErrorInvalidValue);
  {
    std::lock_guard<std::mutex> lock(mu);
    if (!valid_pool(memPool)) return set_error(cudaErrorInvalidValue);
  }
  if (location->type != cudaMemLocationTypeDevice || location->id != 0)
    return set_error(cudaErrorInvalidValue);
  *flags = cudaMemAccessFlagsProtReadWrite;
  return cudaSuccess;
}
cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool,
                                    cudaStream_t stream) {
  creation_site here(__builtin_return_address(0)); // (cudaMallocAsync set its own)
  if (!ptr) return set_error(cudaErrorInvalidValue);
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  cudaError_t captured;
  if (captures_active.load() != 0 && capture_mem_alloc(stream, size, ptr, &captured))
    return set_error(captured); // an allocation node (from the graph's memory, not this pool)
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
  cudaError_t captured;
  if (captures_active.load() != 0 && capture_mem_free(stream, devPtr, &captured))
    return set_error(captured); // a free node
  if (graph_block_at(devPtr))
    return set_error(graph_memory_free(devPtr, "cudaFreeAsync", true, stream));
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
  size_t size = it->second.size;
  uint64_t serial = pooled ? pool_free_locked(devPtr) : 0;
  point freed_at = enqueue(stream, [devPtr, pooled, pool, serial] {
    std::lock_guard<std::mutex> l2(mu);
    if (pooled) {
      pool_free_completed_locked(pool, devPtr, serial);
    } else {
      auto i2 = live.find((uintptr_t)devPtr);
      if (i2 != live.end()) {
        remember_freed(i2->first, i2->second);
        live.erase(i2);
        raw_free(devPtr);
      }
    }
  });
  if (pooled) pool_set_freed_at_locked(pool, devPtr, serial, freed_at);
  forget_accesses(devPtr, size); // a reuse is ordered after this free
  return cudaSuccess;
}

} // extern "C"
