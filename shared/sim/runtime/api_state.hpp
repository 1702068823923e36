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
  // The pool's address space as a GPU lays it out (CUDA 13.0, driver 580, an H200: seen): memory
  // is reserved in 32 MiB granules, and blocks lie one after another at 512-byte steps in it. Only
  // the bookkeeping follows that layout: each block's memory is a host allocation of its own, so
  // that the memory checker keeps a gap between blocks (an overflow into the next block is caught).
  enum class block_state { in_use, queued, idle }; // queued: its cudaFreeAsync is in the queue
  struct block {
    size_t length;   // its place in the pool: the size asked, rounded up to 512 bytes
    size_t capacity; // its memory: the size asked when it was made
    void *ptr;
    block_state state;
    uint64_t free_serial; // which cudaFreeAsync queued it (a block can be freed, reused, freed)
    cusim::rt::point freed_at; // that cudaFreeAsync in its stream: a reuse on another waits for it
  };
  std::map<size_t, block> blocks;     // offset in the pool -> block
  std::map<void *, size_t> offset_of; // block memory -> its offset
  std::set<size_t> granules;          // the reserved granules, by number (offset / 32 MiB)
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
// Where that cudaFreeAsync lies in its stream (a reuse from another stream waits for it).
void pool_set_freed_at_locked(cudaMemPool_t p, void *ptr, uint64_t serial, const point &at);
// When the queue reaches the cudaFreeAsync: the block is idle and may return to the system.
void pool_free_completed_locked(cudaMemPool_t p, void *ptr, uint64_t serial);

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
