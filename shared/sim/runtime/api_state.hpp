// State shared by the files of the runtime API (device.cpp, memory.cpp, pools.cpp,
// stream_api.cpp, launches.cpp): the registry of allocations, the live streams, events and pools,
// and the one mutex that guards them. Not seen by the rest of the runtime.
#pragma once

#include "internal.hpp"

#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <set>

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
namespace api {

// Guards everything below (the API may be called from several host threads).
extern std::mutex mu;
extern cudaError_t sticky_error;

// ---- the registry of allocations (memory.cpp) ----
struct allocation {
  size_t size;
  mem_kind kind;
  unsigned flags;
  cudaMemPool_t pool;
  const void *site = nullptr; // the program's call that allocated it (for the leak report)
};
extern std::map<uintptr_t, allocation> live;  // base -> allocation
extern std::map<uintptr_t, allocation> freed; // recently freed, for "already freed" messages
extern std::deque<uintptr_t> freed_order;
void remember_freed(uintptr_t base, const allocation &a);
lookup find_locked(const void *p);
void add_live(void *p, size_t size, mem_kind kind, unsigned flags = 0,
              cudaMemPool_t pool = nullptr);
void raw_free(void *p);
void *raw_alloc(size_t size);
size_t physical_memory();
size_t available_memory();

// ---- streams and events (stream_api.cpp) ----
extern std::set<cudaStream_t> streams;
extern std::set<cudaEvent_t> events;
// A device-wide wait (cudaDeviceSynchronize, cudaFree): every stream runs to its end.
void sync_all();
// A blocking call on the legacy default stream (cudaMemcpy, cudaMemset): it waits for the
// blocking streams' earlier work, not for cudaStreamNonBlocking streams.
void sync_blocking();

// ---- pools (pools.cpp) ----
// Pool blocks are released to the threshold after a synchronization (takes mu).
void after_sync();
// At the cudaFreeAsync call: the block leaves the registry and becomes reusable at once.
uint64_t pool_free_locked(void *ptr);
// When the queue reaches the cudaFreeAsync: the block is idle and may return to the system.
void pool_free_completed_locked(cudaMemPool_t p, void *ptr, size_t got, uint64_t serial);

// ---- kernels (device.cpp) ----
extern std::map<const void *, int> func_max_dynamic_shared;

} // namespace api
using namespace api;
} // namespace rt
} // namespace cusim

#define CUSIM_CHECK_STICKY()                                                                       \
  do {                                                                                             \
    if (sticky_error != cudaSuccess) return set_error(sticky_error);                               \
  } while (0)
