// Graph memory (cusim_graph.h): the memory of allocation nodes (cudaGraphAddMemAllocNode, or
// cudaMallocAsync in a stream capture), and the footprint attributes.
//
// An allocation node reserves its memory when it is made: its address is fixed then, as CUDA's
// is, and is the same at every launch of every executable graph made from it. The memory is
// allocated when the node runs and stays so until a free node runs (or cudaFree, cudaFreeAsync);
// outside that span the memory checker stops a kernel that touches it. The host's calls are
// checked in the order the host makes them: a graph launched again while its allocation from the
// last launch was never freed, and a second free of one allocation, are refused with one line.
// The reservation goes when no graph, node or executable graph holds it any more.
#include "api_state.hpp"

#include <cinttypes>
#include <cstdio>

namespace cusim {
namespace rt {

struct graph_block {
  void *ptr = nullptr;
  size_t size = 0;
  bool allocated = false;   // in the host's order: a launch allocated it and nothing freed it since
  bool outstanding = false; // allocated and counted in the footprint as not freed by its launch
  ~graph_block();
};

namespace {
std::mutex gm; // guards everything below (taken after mu, never before)
struct entry {
  size_t size;
  std::weak_ptr<graph_block> block;
};
std::map<uintptr_t, entry> blocks;                 // by address
std::vector<std::pair<void *, size_t>> to_release; // reservations no node holds any more

// The footprint, in the host's order: what each stream's launches allocate and free within one
// launch (the next launch on that stream reuses it), what launches allocated and nothing freed,
// and what cudaFree or a later free released but no trim gave back yet. Each is counted in whole
// 32 MiB granules, as an H100 reported them (2026-11-27): 8 KiB, 1 MiB or two 8 KiB blocks hold
// 32 MiB; 33 MiB, or two of 20 MiB, hold 64 MiB; two graphs of 8 KiB on two streams, 64 MiB;
// used and reserved equal; all of it held until cudaDeviceGraphMemTrim, and the highs after it.
constexpr size_t graph_granule = size_t(32) << 20;
size_t in_granules(size_t bytes) {
  return (bytes + graph_granule - 1) / graph_granule * graph_granule;
}
std::map<cudaStream_t, size_t> stream_bytes;
size_t outstanding_bytes = 0, kept_bytes = 0, used_high = 0, reserved_high = 0;
size_t footprint_locked() {
  size_t sum = in_granules(outstanding_bytes) + in_granules(kept_bytes);
  for (auto &kv : stream_bytes) sum += in_granules(kv.second);
  return sum;
}
void note_high_locked() {
  size_t now = footprint_locked();
  if (now > used_high) used_high = now;
  if (now > reserved_high) reserved_high = now;
}
} // namespace

graph_block::~graph_block() {
  std::lock_guard<std::mutex> lock(gm);
  blocks.erase((uintptr_t)ptr);
  to_release.push_back({ptr, size});
}

void graph_memory_release_pending() {
  std::vector<std::pair<void *, size_t>> list;
  {
    std::lock_guard<std::mutex> lock(gm);
    list.swap(to_release);
  }
  if (list.empty()) return;
  std::lock_guard<std::mutex> lock(mu);
  for (auto &r : list) {
    auto it = live.find((uintptr_t)r.first);
    if (it == live.end()) continue;
    remember_freed(it->first, it->second);
    live.erase(it);
    forget_accesses(r.first, r.second);
    raw_free(r.first);
  }
}

std::shared_ptr<graph_block> graph_block_reserve(size_t bytes) {
  graph_memory_release_pending();
  void *p = raw_alloc(bytes);
  if (!p) return nullptr;
#if defined(CUSIM_ASAN)
  __lsan_ignore_object(p);
#endif
  checker_mark(p, bytes, false); // not allocated until its node runs
  auto b = std::make_shared<graph_block>();
  b->ptr = p;
  b->size = bytes;
  {
    std::lock_guard<std::mutex> lock(mu);
    add_live(p, bytes, mem_kind::pool, graph_memory_flag, nullptr);
  }
  std::lock_guard<std::mutex> lock(gm);
  blocks[(uintptr_t)p] = entry{bytes, b};
  return b;
}

void *graph_block_ptr(const graph_block *b) {
  return b->ptr;
}
size_t graph_block_size(const graph_block *b) {
  return b->size;
}
bool graph_block_allocated(const graph_block *b) {
  std::lock_guard<std::mutex> lock(gm);
  return b->allocated;
}

bool graph_block_launch_alloc(graph_block *b, const char *api, bool freed_in_launch) {
  std::lock_guard<std::mutex> lock(gm);
  if (b->allocated) {
    report("%s: the graph allocates %p (%zu bytes) again while its last launch's allocation was "
           "never freed: free it (cudaFree, cudaFreeAsync or a free node) before launching the "
           "graph again (cudaErrorInvalidValue)",
           api, b->ptr, b->size);
    return false;
  }
  b->allocated = true;
  b->outstanding = !freed_in_launch;
  if (b->outstanding) outstanding_bytes += b->size;
  note_high_locked();
  return true;
}

// Host order: one free of the allocation at p. False (reported) when it is not allocated now.
static bool free_locked(graph_block *b, const char *api) {
  if (!b->allocated) {
    report("%s(%p): this graph memory is not allocated now: it was freed already (freed twice?), "
           "or the graph that allocates it was not launched",
           api, b->ptr);
    return false;
  }
  b->allocated = false;
  if (b->outstanding) { // freed outside its launch: the memory is kept until a trim
    outstanding_bytes -= b->size;
    kept_bytes += b->size;
    b->outstanding = false;
  }
  return true;
}

bool graph_block_launch_free(graph_block *b, const char *api) {
  std::lock_guard<std::mutex> lock(gm);
  return free_locked(b, api);
}

void graph_memory_launched(cudaStream_t s, size_t bytes_within) {
  std::lock_guard<std::mutex> lock(gm);
  size_t &held = stream_bytes[s];
  if (bytes_within > held) held = bytes_within;
  note_high_locked();
}

void graph_block_run(graph_block *b, bool allocate) {
  checker_mark(b->ptr, b->size, allocate);
  if (!allocate) forget_accesses(b->ptr, b->size); // a later allocation is ordered after this
}

std::shared_ptr<graph_block> graph_block_at(const void *p) {
  std::lock_guard<std::mutex> lock(gm);
  auto it = blocks.find((uintptr_t)p);
  return it == blocks.end() ? nullptr : it->second.block.lock();
}

cudaError_t graph_memory_free(void *p, const char *api, bool async, cudaStream_t stream) {
  std::shared_ptr<graph_block> b = graph_block_at(p);
  if (!b) return cudaErrorInvalidValue;
  {
    std::lock_guard<std::mutex> lock(gm);
    if (!free_locked(b.get(), api)) return cudaErrorInvalidValue;
  }
  // The reservation outlives this free (the graph's nodes hold it), so the pointer stays good.
  void *ptr = b->ptr;
  size_t size = b->size;
  if (!async) { // cudaFree: the device was synchronized first
    checker_mark(ptr, size, false);
    forget_accesses(ptr, size);
  } else {
    enqueue(stream, [ptr, size] { checker_mark(ptr, size, false); });
    forget_accesses(ptr, size);
  }
  return cudaSuccess;
}

bool graph_memory_describe(uintptr_t a, char *buf, size_t n) {
  std::lock_guard<std::mutex> lock(gm);
  auto it = blocks.upper_bound(a);
  if (it == blocks.begin()) return false;
  --it;
  if (a - it->first >= it->second.size) return false;
  std::snprintf(buf, n,
                "inside graph memory at 0x%" PRIxPTR " (%zu bytes) that is not allocated now "
                "(before its allocation node ran, or after its free node, cudaFree or "
                "cudaFreeAsync)",
                it->first, it->second.size);
  return true;
}

} // namespace rt
} // namespace cusim

using namespace cusim::rt;

extern "C" {

cudaError_t cudaDeviceGraphMemTrim(int device) {
  if (device != 0) return set_error(cudaErrorInvalidDevice);
  graph_memory_release_pending();
  std::lock_guard<std::mutex> lock(gm);
  // What is not held by an allocation goes back (the simulator's launches are never "executing"
  // when the host trims: what they allocate and free within a launch is given back).
  stream_bytes.clear();
  kept_bytes = 0;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr,
                                           void *value) {
  if (device != 0) return set_error(cudaErrorInvalidDevice);
  if (!value) return set_error(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(gm);
  uint64_t v;
  switch (attr) {
  case cudaGraphMemAttrUsedMemCurrent:
  case cudaGraphMemAttrReservedMemCurrent:
    v = footprint_locked();
    break;
  case cudaGraphMemAttrUsedMemHigh:
    v = used_high;
    break;
  case cudaGraphMemAttrReservedMemHigh:
    v = reserved_high;
    break;
  default:
    return set_error(cudaErrorInvalidValue);
  }
  *(uint64_t *)value = v;
  return cudaSuccess;
}

cudaError_t cudaDeviceSetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr,
                                           void *value) {
  if (device != 0) return set_error(cudaErrorInvalidDevice);
  if (!value) return set_error(cudaErrorInvalidValue);
  // Only the high watermarks can be set, and only to zero (then they start again from now).
  if ((attr != cudaGraphMemAttrUsedMemHigh && attr != cudaGraphMemAttrReservedMemHigh) ||
      *(uint64_t *)value != 0) {
    report("cudaDeviceSetGraphMemAttribute: only cudaGraphMemAttrUsedMemHigh and "
           "cudaGraphMemAttrReservedMemHigh can be set, and only to 0");
    return set_error(cudaErrorInvalidValue);
  }
  std::lock_guard<std::mutex> lock(gm);
  size_t now = footprint_locked();
  if (attr == cudaGraphMemAttrUsedMemHigh)
    used_high = now;
  else
    reserved_high = now;
  return cudaSuccess;
}

} // extern "C"
