// The memory checker: every load and store of a program's .cu files, checked while a kernel runs.
//
// The simulator compiles a program's .cu files with -fsanitize=thread (cusim.cmake), but links no
// ThreadSanitizer: the compiler's per-access callbacks (__tsan_read4, __tsan_write8, the atomics)
// are defined here. Simulated threads run one after another, so a lost update such as
// `*count += mine` without an atomic almost never happens for real; instead of waiting for an
// unlucky interleaving, the checker records, for each 4-byte word of device and shared memory,
// the last thread that wrote it and the last that read it during the launch, and reports the first
// access that conflicts with one no barrier orders it after. The verdict does not depend on the
// schedule: a race is found on every run, whichever order the threads ran in.
//
// Device memory (cudaMalloc, cudaMallocManaged, cudaMallocHost, pools) and shared memory come from
// one reserved region, the arena, when the checker is on. Beside it lie two shadows:
//   * the bounds shadow, one byte per 8 bytes: how many of them belong to a live allocation (0
//     for gaps and never-allocated space, freed_mark after cudaFree); every kernel access is
//     checked against it, so a write one element past the end is reported, not only one that
//     reaches an unmapped page;
//   * the race shadow, 24 bytes per 4-byte word: the last writer and the last reader, each a
//     thread's number in the grid with the block's barrier count and its warp's sync count.
// Two accesses of different threads are ordered when a __syncthreads() of their block came
// between them, or, in the same warp, a __syncwarp() (or another warp function). Blocks are never
// ordered with each other, except where the writer called __threadfence() (the "last block"
// pattern: the checker then trusts the fence and the atomic that goes with it). Atomics are
// neither recorded nor checked for races (they cannot lose an update).
//
// What it cannot see: accesses made by code that is not compiled from a .cu file (the C library's
// memcpy, a host .c file), and memory outside the arena (a __device__ variable, host memory
// registered with cudaHostRegister, a thread's local arrays). Two plain writes of different threads
// to one word are not reported (writing the same flag from many threads is a common idiom); a read
// that meets a write, or a write that meets a read, is.
// The checker's thread-local state in the initial-exec model: one load of a fixed offset (made
// no load at all where the linker relaxes it, in a program), where the default model for -fPIC
// code is a call to __tls_get_addr that gcc must assume clobbers the caller-saved registers, so
// every callback that reads one built a frame. libcusim is a static library; a shared object that
// links it takes its few hundred bytes from the static TLS block (glibc keeps a reserve for that).
#define CUSIM_TLS_MODEL __attribute__((tls_model("initial-exec")))
#include "internal.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <dlfcn.h>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

#if !defined(CUSIM_NO_CHECKER)
namespace cusim {
namespace rt {

__thread instr_thread itls __attribute__((tls_model("initial-exec")));

namespace {

// ---- the arena ----------------------------------------------------------------------------------
constexpr uintptr_t arena_bytes = uintptr_t(1) << 40;   // 1 TiB of address space, reserved only
constexpr uintptr_t shared_bytes = uintptr_t(64) << 30; // the top 64 GiB: shared memory
constexpr uintptr_t global_bytes = arena_bytes - shared_bytes;
// Blocks larger than race_max_bytes (CUSIM_RACE_MAX_MB, default 8) lie in the upper half of the
// global part and are checked for bounds only: their race records would take six times their size,
// and the races learners write are on counters, partial sums and shared memory, not in big arrays.
constexpr uintptr_t big_start = global_bytes / 2;
size_t race_max_bytes = size_t(8) << 20;
constexpr unsigned char freed_mark = 0xFE; // bounds shadow of freed memory
constexpr size_t page = 4096;

uintptr_t arena_base = 0; // 0 while the checker is off
// arena_bytes once the arena is reserved, 0 before and with the checker off: the callbacks' first
// test, `p - arena_base >= arena_span`, then sends every address outside the arena back at once.
uintptr_t arena_span = 0;
uintptr_t code_base = 0; // where the program is loaded: code addresses are kept as 32-bit offsets
// Race shadow: 24 bytes per 4-byte word (writer, reader, where each was in the code); bounds
// shadow: 1 byte per 8 bytes.
uint64_t *race_shadow = nullptr;
// Byte cells (24 bytes per byte) of words split by sub-word accesses: see check_bytes.
uint64_t *byte_shadow = nullptr;
constexpr uintptr_t byte_shadow_bytes = (big_start + shared_bytes) * 24;
unsigned char *bounds_shadow = nullptr;
// One byte per 4 KiB page of the arena: where every granule of the page is addressable (its 512
// bounds bytes all 8), page_small, or page_big in a big block (bounds only); else 0. An aligned
// access to such a page needs no look at the bounds shadow (check_in_arena, the callbacks). A
// column walk down a large matrix meets a new line of the bounds shadow at every element; these
// bytes of a 16 MB array fit in 4 KB.
unsigned char *page_ok = nullptr;
constexpr unsigned char page_small = 1, page_big = 2;
constexpr uintptr_t ok_page = 4096;
constexpr uintptr_t page_ok_bytes = arena_bytes / ok_page + ok_page; // (an access at the very top)
// Words of small global blocks read by threads of more than one block since the last write, in
// this epoch (the epoch's number, 2 bytes a word; see race_word): a read of such a word can find
// nothing new to report and changes nothing a later write is judged by, so it skips the cell.
uint16_t *read_shared = nullptr;
constexpr uintptr_t read_shared_bytes = big_start / 2;
bool requested = false;          // an instrumented file's constructor ran (__tsan_init)
bool off_by_env = false;         // CUSIM_MEMCHECK=0
bool unchecked_by_build = false; // nvcc-sim --unchecked (cusim_unchecked_build)
std::once_flag init_once;
std::mutex arena_mu;
uintptr_t global_top = 0, big_top = big_start,
          shared_top = global_bytes;                     // bump pointers (offsets)
std::unordered_map<uintptr_t, size_t> block_sizes;       // offset -> bytes asked, of live blocks
std::unordered_multimap<size_t, uintptr_t> shared_cache; // bytes -> offset, of freed shared blocks

// Freed device memory is reused, after a quarantine, as AddressSanitizer's allocator does: a block
// that cudaFree gave back keeps its pages and is marked freed in the bounds shadow (so a use after
// the free stops the block that makes it), and its address range is handed out again only once
// quarantine_frees more blocks and quarantine_max more bytes were freed after it. So a
// cudaMalloc/cudaFree loop stops faulting in fresh pages every iteration (a 400 KB loop took 290 us
// an iteration that way, against 57 us unchecked), while a stale pointer to one of the last frees
// is still caught. The quarantine is small on purpose: its blocks are the ones a loop cycles
// through, and the more of them, the colder each copy into them (the 400 KB loop: 115 us an
// iteration with 64 MiB, ASan's being 256 MiB; 85-97 us with 8 MiB; 53 us with 2 MiB). Past
// quarantine, a range waits in `reusable` (pages kept, still marked freed) for a cudaMalloc of the
// same page-rounded size; beyond reusable_max the largest are given back (pages and shadows) and
// their addresses never reused. Blocks larger than reuse_max_block are given back at once, as
// before, and never reused.
constexpr size_t quarantine_frees = 4, quarantine_max = size_t(2) << 20,
                 reusable_max = size_t(64) << 20, reuse_max_block = size_t(32) << 20;
struct freed_range {
  uintptr_t off;
  size_t bytes; // page-rounded
};
std::deque<freed_range> quarantine; // oldest first
size_t quarantine_bytes = 0, reusable_bytes = 0;
std::multimap<size_t, uintptr_t> reusable; // page-rounded bytes -> offset

// Race-shadow offsets touched during the launch (per worker, merged when the launch ends), so the
// next launch starts from a clean shadow without clearing all of it.
std::mutex dirty_mu;
// Two ranges: [0] global memory, [1] shared memory (far apart in the arena).
uintptr_t dirty_lo[2] = {UINTPTR_MAX, UINTPTR_MAX}, dirty_hi[2] = {0, 0};
#define CUSIM_IE __attribute__((tls_model("initial-exec")))
__thread uintptr_t my_lo[2] CUSIM_IE = {UINTPTR_MAX, UINTPTR_MAX}, my_hi[2] CUSIM_IE = {0, 0};
#undef CUSIM_IE

// Threads (by number in the grid) that called __threadfence() in this launch.
std::mutex fenced_mu;
std::unordered_set<uint32_t> fenced;
std::atomic<bool> any_fenced{false};

void *reserve(size_t bytes, int prot) {
  void *p = mmap(nullptr, bytes, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

void init() {
  if (!requested) return;
  if (const char *e = std::getenv("CUSIM_MEMCHECK"))
    if (!std::strcmp(e, "0") || !std::strcmp(e, "off")) {
      off_by_env = true;
      return;
    }
  if (const char *e = std::getenv("CUSIM_RACE_MAX_MB")) {
    char *end = nullptr;
    long long mb = std::strtoll(e, &end, 10);
    if (end != e && *end == 0 && mb >= 0 && mb <= (1ll << 20)) race_max_bytes = size_t(mb) << 20;
  }
  void *data = reserve(arena_bytes, PROT_NONE);
  void *bounds = reserve(arena_bytes / 8, PROT_READ | PROT_WRITE);
  void *shared_reads = reserve(read_shared_bytes, PROT_READ | PROT_WRITE);
  void *race = reserve(arena_bytes * 6, PROT_READ | PROT_WRITE);
  void *bytes = reserve(byte_shadow_bytes, PROT_READ | PROT_WRITE);
  void *pages = reserve(page_ok_bytes, PROT_READ | PROT_WRITE);
  if (!data || !bounds || !race || !bytes || !shared_reads || !pages) {
    if (data) munmap(data, arena_bytes);
    if (bounds) munmap(bounds, arena_bytes / 8);
    if (race) munmap(race, arena_bytes * 6);
    if (bytes) munmap(bytes, byte_shadow_bytes);
    if (shared_reads) munmap(shared_reads, read_shared_bytes);
    if (pages) munmap(pages, page_ok_bytes);
    std::fprintf(stderr, "cusim: warning: cannot reserve address space for the memory checker: "
                         "races and out-of-bounds accesses are not checked\n");
    return;
  }
  bounds_shadow = (unsigned char *)bounds;
  page_ok = (unsigned char *)pages;
  race_shadow = (uint64_t *)race;
  byte_shadow = (uint64_t *)bytes;
  read_shared = (uint16_t *)shared_reads;
  arena_base = (uintptr_t)data;
  arena_span = arena_bytes;
  Dl_info info;
  if (dladdr((void *)&init, &info)) code_base = (uintptr_t)info.dli_fbase;
}

void ensure_init() {
  std::call_once(init_once, init);
}

uintptr_t round_up(uintptr_t v, uintptr_t a) {
  return (v + a - 1) / a * a;
}

// Marks [off, off + bytes) addressable (bytes may end inside a granule) or with `mark`, and keeps
// page_ok: the pages wholly inside an addressable block are set, those at its edges looked at.
void set_bounds(uintptr_t off, size_t bytes, bool live) {
  uintptr_t g = off / 8, full = bytes / 8;
  uintptr_t p0 = off / ok_page, p1 = (off + bytes + ok_page - 1) / ok_page;
  if (live) {
    std::memset(bounds_shadow + g, 8, full);
    if (bytes % 8) bounds_shadow[g + full] = (unsigned char)(bytes % 8);
    unsigned char ok = off - big_start < global_bytes - big_start ? page_big : page_small;
    uintptr_t in_lo = (off + ok_page - 1) / ok_page, in_hi = (off + full * 8) / ok_page;
    if (in_hi <= in_lo) in_lo = in_hi = p1;
    std::memset(page_ok + in_lo, ok, in_hi - in_lo);
    for (uintptr_t p = p0; p < p1; ++p) {
      if (p == in_lo) p = in_hi;
      if (p >= p1) break;
      const unsigned char *s = bounds_shadow + p * (ok_page / 8);
      unsigned char all = 1;
      for (uintptr_t k = 0; k < ok_page / 8; ++k) all &= s[k] == 8;
      page_ok[p] = all ? ok : 0;
    }
  } else {
    std::memset(page_ok + p0, 0, p1 - p0);
    std::memset(bounds_shadow + g, freed_mark, (bytes + 7) / 8);
  }
}

// ---- the race records ---------------------------------------------------------------------------
// A record: the thread's number in the grid plus one (0: none) in the top 32 bits, its block's
// barrier count (19 bits), its warp's sync count (10 bits), and three flags: more than one thread
// read since the last write, and those readers were in more than one warp, or block.
constexpr uint64_t flag_many_readers = 1, flag_many_warps = 2, flag_many_blocks = 4;
constexpr uint64_t reader_flags = flag_many_readers | flag_many_warps | flag_many_blocks;
inline uint64_t make_record(uint32_t gid1, unsigned bar, unsigned warp) {
  return (uint64_t)gid1 << 32 | (uint64_t)(bar & 0x7FFFFu) << 13 | (uint64_t)(warp & 0x3FFu) << 3;
}
inline uint32_t rec_gid1(uint64_t r) {
  return (uint32_t)(r >> 32);
}
inline unsigned rec_bar(uint64_t r) {
  return (unsigned)(r >> 13) & 0x7FFFFu;
}
inline unsigned rec_warp(uint64_t r) {
  return (unsigned)(r >> 3) & 0x3FFu;
}

inline bool same_epoch(uint64_t a, uint64_t b) {
  return ((a ^ b) & 0xFFFFFFFFull) >> 3 == 0; // the same barrier and warp-sync counts
}

// A cell's third word: where the writer and the reader were in the code (23-bit offsets from
// code_base; 0: unknown), whether the word is split into byte cells (bit 46), and the epoch its
// records belong to (16 bits). Records of an older epoch are empty: a new launch, or a
// grid.sync(), starts a new epoch, so nothing needs clearing.
constexpr uint64_t pc_mask = (uint64_t(1) << 23) - 1;
constexpr uint64_t meta_split = uint64_t(1) << 46;
inline uint64_t code_offset(const void *pc) {
  uintptr_t d = (uintptr_t)pc - code_base;
  return d <= pc_mask ? d : 0;
}
uint64_t launch_epoch = 1; // the running launch's (1 to 0xFFFF; changed only while no block runs)
inline uint64_t meta_epoch(uint64_t m) {
  return m >> 48;
}
// Whether the global word at `off` (of a small block) is read_shared in this epoch.
inline bool is_read_shared(uintptr_t off) {
  return __atomic_load_n(&read_shared[off / 4], __ATOMIC_RELAXED) == (uint16_t)launch_epoch;
}
inline uint32_t meta_writer_pc(uint64_t m) {
  return (uint32_t)(m & pc_mask);
}
inline uint32_t meta_reader_pc(uint64_t m) {
  return (uint32_t)((m >> 23) & pc_mask);
}

enum class order { same_thread, ordered, unordered, stale };

// How the access recorded in r relates to the running thread's access now.
inline order relate(uint64_t r, bool in_shared) {
  uint32_t g = rec_gid1(r);
  if (g == 0) return order::stale;
  uint32_t me = itls.gid1_base + cusim_tls.tid;
  if (g == me) return order::same_thread;
  // Readers in more than one block: one of them is in another block than this thread.
  if (r & flag_many_blocks) return order::unordered;
  uint32_t t = g - itls.gid1_base; // the other thread's index in this block, if it is in it
  if (t >= itls.nthreads) return in_shared ? order::stale : order::unordered;
  if (rec_bar(r) != (*itls.bar_gen & 0x7FFFFu)) return order::ordered;
  unsigned wi = cusim_tls.tid >> 5;
  // Readers in more than one warp: one of them is in another warp than this thread, and only a
  // __syncthreads() orders it.
  if ((t >> 5) == wi && rec_warp(r) != (itls.warp_gen[wi] & 0x3FFu) && !(r & flag_many_warps))
    return order::ordered;
  return order::unordered;
}

bool writer_fenced(uint64_t r) {
  if (!any_fenced.load(std::memory_order_relaxed)) return false;
  std::lock_guard<std::mutex> lock(fenced_mu);
  return fenced.count(rec_gid1(r)) != 0;
}

// ---- reports ------------------------------------------------------------------------------------

std::string thread_text(uint32_t gid1, bool with_block) {
  uint32_t g = gid1 - 1;
  unsigned n = itls.nthreads;
  uint3 bd = cusim_tls.block_dim, gd = cusim_tls.grid_dim;
  uint64_t bi = g / n;
  unsigned t = g % n;
  char buf[128];
  int k = std::snprintf(buf, sizeof buf, "thread (%u,%u,%u)", t % bd.x, (t / bd.x) % bd.y,
                        t / (bd.x * bd.y));
  if (with_block)
    std::snprintf(buf + k, sizeof buf - (size_t)k, " of block (%u,%u,%u)", (unsigned)(bi % gd.x),
                  (unsigned)((bi / gd.x) % gd.y), (unsigned)(bi / ((uint64_t)gd.x * gd.y)));
  return buf;
}

std::string memory_text(uintptr_t a, bool in_shared) {
  if (in_shared) return "__shared__ memory";
  lookup l = nearest_allocation((const void *)a);
  char buf[256];
  if (l.live && a >= l.base && a < l.base + l.size)
    std::snprintf(buf, sizeof buf, "%s memory (byte %" PRIuPTR " of the %zu at 0x%" PRIxPTR ")",
                  kind_name(l.kind), a - l.base, l.size, l.base);
  else
    std::snprintf(buf, sizeof buf, "memory at 0x%" PRIxPTR, a);
  return buf;
}

[[noreturn]] __attribute__((cold, noinline)) void
report_race(uintptr_t a, unsigned size, bool write, uint64_t other, bool other_wrote,
            bool in_shared, const void *pc, uint32_t other_pc, bool vol) {
  uint32_t me = itls.gid1_base + cusim_tls.tid, them = rec_gid1(other);
  uint32_t them_t = them - itls.gid1_base;
  bool same_block = them_t < itls.nthreads && !(other & flag_many_blocks);
  bool same_warp =
      same_block && (them_t >> 5) == (cusim_tls.tid >> 5) && !(other & flag_many_warps);
  std::string who = them == me ? std::string("other threads")
                    : (other & flag_many_readers) != 0
                        ? thread_text(them, !same_block) + " and others"
                        : thread_text(them, !same_block);
  std::string other_at =
      them == me || other_pc == 0 ? "" : source_line((void *)(code_base + other_pc));
  const char *async_file = nullptr;
  int async_line = 0;
  bool async_pending = false;
  if (other_wrote && them != me && them_t < itls.nthreads &&
      async_issue_site(a, them_t, &async_file, &async_line, &async_pending))
    other_at = " with memcpy_async at " + place(async_file, async_line) +
               (async_pending ? ", a copy that thread has not waited for yet"
                              : " (that thread's wait covers its own copies only)");
  std::string msg = "data race" + source_line(pc) + ": " + thread_text(me, !same_block) +
                    (write ? " writes " : " reads ") + std::to_string(size) +
                    (size == 1 ? " byte of " : " bytes of ") + memory_text(a, in_shared) +
                    " that " + who + (other_wrote ? " wrote" : " read") + other_at;
  if (!same_block)
    msg += "; blocks run in no fixed order and cannot wait for each other: use an atomic "
           "(atomicAdd...)";
  else if (same_warp && vol) // issue 18: the warp-synchronous code written before Volta
    msg += ", with no __syncwarp() between them: `volatile` does not keep a warp's threads in "
           "lockstep (not since Volta), so this warp-synchronous code needs __syncwarp() between "
           "each step that reads what another lane wrote";
  else if (same_warp)
    msg += ", with no __syncwarp() between them (a warp's threads do not run in lockstep): if both "
           "update it, use an atomic (atomicAdd...); if one must see the other's write, put "
           "__syncwarp() or __syncthreads() between them";
  else
    msg += ", with no __syncthreads() between them: if both update it, use an atomic "
           "(atomicAdd...); if one must see the other's write, put __syncthreads() between them";
  msg += " (a GPU gets this wrong only sometimes; the simulator finds it every time)";
  race_failed(msg.c_str());
}

// An out-of-bounds __shared__ access that lies exactly k x 2^32 bytes (k 1 to 16) past bytes the
// block may use is almost always an unsigned 32-bit index meant as negative (p[~i], p[0u - i]),
// scaled by k-byte elements: C++ makes it a huge positive offset, but nvcc computes __shared__
// addresses in 32 bits (ld.shared [%r]), so a GPU wraps to those bytes and may not fault. The
// access stays refused (C++ leaves it undefined); the note says why a GPU may seem to run it.
std::string shared_wrap_note(uintptr_t off, unsigned size) {
  for (uintptr_t k = 1; k <= 16; ++k) {
    const uintptr_t back = off - (k << 32);
    if (off < (k << 32) || back < global_bytes) break;
    bool usable = true;
    for (uintptr_t g = back / 8; usable && g * 8 < back + size; ++g) {
      const unsigned char v = bounds_shadow[g];
      const uintptr_t last = std::min<uintptr_t>(back + size, g * 8 + 8) - g * 8;
      usable = v != freed_mark && v >= last;
    }
    if (!usable) continue;
    char buf[400];
    std::snprintf(buf, sizeof buf,
                  " (%" PRIuPTR " x 2^32 bytes past __shared__ memory it may use: an unsigned "
                  "32-bit index meant as negative, such as ~i or 0u - i, with %" PRIuPTR
                  "-byte elements? A GPU computes __shared__ addresses in 32 bits, wraps there "
                  "and may not fault; make the index a signed int)",
                  k, k);
    return buf;
  }
  return "";
}

[[noreturn]] __attribute__((cold, noinline)) void report_bounds(uintptr_t a, unsigned size,
                                                                bool write, const void *pc) {
  uintptr_t off = a - arena_base;
  bool in_shared = off >= global_bytes;
  char buf[512];
  lookup l = nearest_allocation((const void *)a);
  std::string what;
  if (!in_shared && graph_memory_describe(a, buf, sizeof buf)) {
    what = buf;
  } else if (l.freed) {
    std::snprintf(buf, sizeof buf, "inside %s memory that was freed (%zu bytes at 0x%" PRIxPTR ")",
                  kind_name(l.kind), l.size, l.base);
    what = buf;
  } else if (in_shared) {
    what = "past the end of the block's __shared__ memory";
    what += shared_wrap_note(off, size);
  } else if (l.live || l.size) {
    if (a >= l.base + l.size)
      std::snprintf(buf, sizeof buf,
                    "%" PRIuPTR " bytes past the end of %s memory at 0x%" PRIxPTR " (%zu bytes)",
                    a - (l.base + l.size), kind_name(l.kind), l.base, l.size);
    else if (a >= l.base) // a vector access (float4: 16 bytes) that starts inside and runs out
      std::snprintf(buf, sizeof buf,
                    "its last %" PRIuPTR " bytes past the end of %s memory at 0x%" PRIxPTR
                    " (%zu bytes)",
                    a + size - (l.base + l.size), kind_name(l.kind), l.base, l.size);
    else
      std::snprintf(buf, sizeof buf,
                    "%" PRIuPTR " bytes before %s memory at 0x%" PRIxPTR " (%zu bytes)", l.base - a,
                    kind_name(l.kind), l.base, l.size);
    what = buf;
  } else {
    what = "outside every allocation";
  }
  std::snprintf(buf, sizeof buf, "out-of-bounds %s%s: %s of %u byte%s at 0x%" PRIxPTR ", ",
                write ? "write" : "read", source_line(pc).c_str(), write ? "a write" : "a read",
                size, size == 1 ? "" : "s", a);
  std::string msg = std::string(buf) + what + ", by " +
                    thread_text(itls.gid1_base + cusim_tls.tid, false) +
                    " (a GPU may not stop here; the simulator always does)";
  bounds_failed(msg.c_str());
}

// ---- reads of __shared__ memory no thread of the block wrote ------------------------------------
// Shared memory starts each block with whatever was there (the simulator fills it with 0xFF). A
// read of a word whose last writer is not a thread of this block is remembered, and reported at
// the block's next __syncthreads() or its end: a missing barrier between another thread's write and
// this read is then reported as the data race it is (the write comes later, in the same interval),
// and only a word nobody writes first is reported here. One per block.
struct uninit_read {
  bool set = false;
  unsigned size = 0, tid = 0, bar_gen = 0;
  uintptr_t a = 0;
  const void *pc = nullptr;
};
__thread uninit_read pending_uninit __attribute__((tls_model("initial-exec")));

[[noreturn]] __attribute__((cold, noinline)) void report_uninit() {
  uninit_read r = pending_uninit;
  pending_uninit.set = false;
  char buf[160];
  std::snprintf(buf, sizeof buf, " reads %u byte%s at 0x%" PRIxPTR, r.size, r.size == 1 ? "" : "s",
                r.a);
  std::string msg = "read of uninitialized __shared__ memory" + source_line(r.pc) + ": " +
                    thread_text(itls.gid1_base + r.tid, false) + buf +
                    " that no thread of its block wrote first (shared memory starts each block "
                    "with what an earlier block left there; the simulator fills it with 0xFF "
                    "bytes): write it before reading it, with a __syncthreads() between when "
                    "another thread writes it";
  race_failed(msg.c_str());
}

// ---- the check of one access --------------------------------------------------------------------
// One cell (a word's, or a byte's when the word is split): checks the access against the
// records and updates them. `meta` is the cell's third word as loaded, `fresh` whether it is of
// this epoch.
__attribute__((always_inline)) inline void check_cell(uint64_t *cell, uint64_t meta, bool fresh,
                                                      uintptr_t a, unsigned size, bool write,
                                                      const void *pc, bool vol, bool in_shared,
                                                      uint64_t mine) {
  uint64_t writer = fresh ? __atomic_load_n(&cell[0], __ATOMIC_RELAXED) : 0;
  uint64_t reader = fresh ? __atomic_load_n(&cell[1], __ATOMIC_RELAXED) : 0;
  if (!fresh) meta = launch_epoch << 48;
  if (!write) {
    if (writer != 0 && relate(writer, in_shared) == order::unordered &&
        !(rec_gid1(writer) - itls.gid1_base >= itls.nthreads && (vol || writer_fenced(writer))))
      report_race(a, size, false, writer, true, in_shared, pc, meta_writer_pc(meta), vol);
    if (in_shared && !pending_uninit.set &&
        (writer == 0 || rec_gid1(writer) - itls.gid1_base >= itls.nthreads) &&
        running_grid() == nullptr) { // (a grid.sync() starts a new epoch: records are gone)
      pending_uninit = {true, size, cusim_tls.tid, *itls.bar_gen, a, pc};
      itls.fast = false; // every access now goes the slow way, to report it after a barrier
    }
    uint64_t next = mine;
    if (reader != 0) {
      order o = relate(reader, in_shared);
      if (o == order::unordered) {
        uint32_t t = rec_gid1(reader) - itls.gid1_base; // where the other reader was
        next |= flag_many_readers | (reader & reader_flags) |
                (t >= itls.nthreads                 ? flag_many_blocks
                 : (t >> 5) != (cusim_tls.tid >> 5) ? flag_many_warps
                                                    : 0);
      } else if (o == order::same_thread && (reader & flag_many_readers) &&
                 same_epoch(reader, mine)) {
        next |= reader & reader_flags;
      }
    }
    // Many readers already, in the same barrier and warp epochs, with the same spread: this read
    // changes nothing a later write is judged by (only which reader is named).
    bool same_spread = (reader & flag_many_readers) && (uint32_t)reader == (uint32_t)next;
    if ((next != reader && !same_spread) || !fresh) {
      if (!fresh) __atomic_store_n(&cell[0], 0, __ATOMIC_RELAXED);
      __atomic_store_n(&cell[1], next, __ATOMIC_RELAXED);
      __atomic_store_n(&cell[2], (meta & ~(pc_mask << 23)) | code_offset(pc) << 23,
                       __ATOMIC_RELAXED);
    }
  } else {
    if (reader != 0) {
      order o = relate(reader, in_shared);
      // Another thread read it unordered, or this thread did while others read it too: in its
      // barrier interval, or in any block but its own (no barrier orders other blocks).
      if ((o == order::unordered && !(vol && rec_gid1(reader) - itls.gid1_base >= itls.nthreads)) ||
          (o == order::same_thread && (reader & flag_many_readers) &&
           ((reader & flag_many_blocks) ? !vol : same_epoch(reader, mine))))
        report_race(a, size, true, reader, false, in_shared, pc, meta_reader_pc(meta), vol);
    }
    if (reader != 0 || !fresh) __atomic_store_n(&cell[1], 0, __ATOMIC_RELAXED);
    if (writer != mine) __atomic_store_n(&cell[0], mine, __ATOMIC_RELAXED);
    uint64_t next_meta = (meta & ~pc_mask) | code_offset(pc);
    if (next_meta != meta || !fresh) __atomic_store_n(&cell[2], next_meta, __ATOMIC_RELAXED);
  }
}

// Byte cells: a word that an access covers only in part (a char, a bool, a short, one byte of a
// char4) is split, for the rest of the epoch, into four cells of its own bytes, so threads that
// use neighbouring bytes of one word never meet (bfs's bool arrays, a byte histogram in
// __shared__ memory). A word only ever accessed whole keeps its one cell. The byte cells of
// global memory's small blocks and of shared memory are one shadow, indexed by the byte's offset
// with the bounds-only big blocks left out.
inline uint64_t *byte_cells(uintptr_t off) { // off: a word's first byte
  return byte_shadow + 3 * (off < big_start ? off : off - global_bytes + big_start);
}

// The bytes [b0, b1) of the word w (a sub-word access, or any access of a split word).
__attribute__((noinline)) void check_bytes(uintptr_t w, uint64_t meta, bool fresh, uintptr_t b0,
                                           uintptr_t b1, uintptr_t a, unsigned size, bool write,
                                           const void *pc, bool vol, bool in_shared,
                                           uint64_t mine) {
  uint64_t *cell = race_shadow + 3 * w;
  uint64_t *bytes = byte_cells(w * 4);
  if (!(fresh && (meta & meta_split))) {
    // Split now: each byte starts with the word's records (made by accesses of the whole word),
    // or empty when they are of an older epoch.
    uint64_t wr = fresh ? __atomic_load_n(&cell[0], __ATOMIC_RELAXED) : 0;
    uint64_t rd = fresh ? __atomic_load_n(&cell[1], __ATOMIC_RELAXED) : 0;
    uint64_t m = fresh ? meta : launch_epoch << 48;
    for (int k = 0; k < 4; ++k) {
      __atomic_store_n(&bytes[3 * k], wr, __ATOMIC_RELAXED);
      __atomic_store_n(&bytes[3 * k + 1], rd, __ATOMIC_RELAXED);
      __atomic_store_n(&bytes[3 * k + 2], m, __ATOMIC_RELAXED);
    }
    if (!fresh) { // (so that a word whose split bit another worker overwrites holds no old records)
      __atomic_store_n(&cell[0], 0, __ATOMIC_RELAXED);
      __atomic_store_n(&cell[1], 0, __ATOMIC_RELAXED);
    }
    __atomic_store_n(&cell[2], m | meta_split, __ATOMIC_RELAXED);
  }
  for (uintptr_t b = b0; b < b1; ++b) {
    uint64_t *c = bytes + 3 * (b - w * 4);
    uint64_t m = __atomic_load_n(&c[2], __ATOMIC_RELAXED);
    check_cell(c, m, meta_epoch(m) == launch_epoch, a, size, write, pc, vol, in_shared, mine);
  }
}

// ---- stream races of kernels (streams.cpp chooses the ranges: kernel_watch_begin) -------------
// Set only while no block runs; the workers read it after the launch hands them its blocks.
bool watch_on = false;
struct watch_slot {
  uintptr_t lo, hi;
  uintptr_t max_hi; // the largest hi of this slot and every slot before it (sorted by lo)
  size_t index;     // in the caller's order
  bool other_writes, other_atomic;
  std::atomic<uintptr_t> hit_lo, hit_hi;
  std::atomic<bool> wrote;
};
std::unique_ptr<watch_slot[]> watch_slots;
size_t watch_n = 0;

// The kernel's own bytes, kept when another stream's kernel not ordered with it is still queued
// (that kernel is then watched against them). Per worker: a few open runs that grow while the
// accesses are adjacent (a block's threads run one after another), then a list of closed runs.
bool footprint_on = false;
constexpr size_t footprint_open = 4, footprint_max = size_t(1) << 20; // runs per worker and kind
struct footprint_runs {
  uint64_t gen = 0;
  std::pair<uintptr_t, uintptr_t> open[3][footprint_open]; // reads, writes, atomics
  unsigned next[3] = {0, 0, 0};
  std::vector<std::pair<uintptr_t, uintptr_t>> closed[3];
  bool overflow = false;
};
uint64_t footprint_gen = 0;
std::mutex footprint_mu;
std::vector<footprint_runs *> footprint_workers; // this launch's (each a worker's thread_local)
thread_local footprint_runs my_runs;

void footprint_add(uintptr_t a, uintptr_t end, int kind) {
  footprint_runs &f = my_runs;
  if (f.gen != footprint_gen) {
    for (int k = 0; k < 3; ++k) {
      for (auto &o : f.open[k]) o = {0, 0};
      f.closed[k].clear();
      f.next[k] = 0;
    }
    f.overflow = false;
    f.gen = footprint_gen;
    std::lock_guard<std::mutex> lock(footprint_mu);
    footprint_workers.push_back(&f);
  }
  auto *open = f.open[kind];
  for (size_t k = 0; k < footprint_open; ++k) {
    auto &o = open[k];
    if (o.second == 0) continue;
    if (a <= o.second && end >= o.first) { // touches or overlaps: grow it
      o.first = std::min(o.first, a);
      o.second = std::max(o.second, end);
      return;
    }
  }
  auto &victim = open[f.next[kind]];
  f.next[kind] = (f.next[kind] + 1) % footprint_open;
  if (victim.second != 0) {
    if (f.closed[kind].size() < footprint_max)
      f.closed[kind].push_back(victim);
    else
      f.overflow = true;
  }
  victim = {a, end};
}

// An atomic counts as a write, except against another kernel's atomics (they cannot lose one).
__attribute__((cold, noinline)) void watch_access(uintptr_t a, unsigned size, bool write,
                                                  bool atomic) {
  uintptr_t end = a + size;
  if (footprint_on && a - arena_base < global_bytes)
    footprint_add(a, end, atomic ? 2 : write); // not shared
  // The slots are sorted by lo: those that start before `end`, back while one may reach `a`.
  size_t n = 0, hi_i = watch_n;
  while (n < hi_i) {
    size_t mid = (n + hi_i) / 2;
    if (watch_slots[mid].lo < end)
      n = mid + 1;
    else
      hi_i = mid;
  }
  for (size_t k = n; k-- > 0 && watch_slots[k].max_hi > a;) {
    watch_slot &w = watch_slots[k];
    if (w.hi <= a || !(write || w.other_writes) || (atomic && w.other_atomic)) continue;
    uintptr_t lo = std::max(a, w.lo), hi = std::min(end, w.hi);
    uintptr_t cur = w.hit_lo.load(std::memory_order_relaxed);
    while (lo < cur && !w.hit_lo.compare_exchange_weak(cur, lo, std::memory_order_relaxed)) {
    }
    cur = w.hit_hi.load(std::memory_order_relaxed);
    while (hi > cur && !w.hit_hi.compare_exchange_weak(cur, hi, std::memory_order_relaxed)) {
    }
    if (write && !w.wrote.load(std::memory_order_relaxed))
      w.wrote.store(true, std::memory_order_relaxed);
  }
}

// The race records of one access (out of line: an access of a big block, checked for bounds
// only, then costs no frame for them).
__attribute__((noinline)) void check_races(uintptr_t a, uintptr_t off, unsigned size, bool write,
                                           const void *pc, bool vol) {
  uintptr_t end = off + size;
  bool in_shared = off >= global_bytes;
  uint32_t me = itls.gid1_base + cusim_tls.tid;
  uint64_t mine = make_record(me, *itls.bar_gen, itls.warp_gen[cusim_tls.tid >> 5]);
  uintptr_t w0 = off / 4, w1 = (end - 1) / 4;
  if (w0 < my_lo[in_shared]) my_lo[in_shared] = w0;
  if (w1 + 1 > my_hi[in_shared]) my_hi[in_shared] = w1 + 1;
  if (write && !in_shared) // a write ends the words' read_shared state (their records say the rest)
    for (uintptr_t w = w0; w <= w1; ++w)
      if (__atomic_load_n(&read_shared[w], __ATOMIC_RELAXED) != 0)
        __atomic_store_n(&read_shared[w], 0, __ATOMIC_RELAXED);
  for (uintptr_t w = w0; w <= w1; ++w) {
    uint64_t *cell = race_shadow + 3 * w;
    uint64_t meta = __atomic_load_n(&cell[2], __ATOMIC_RELAXED);
    bool fresh = meta_epoch(meta) == launch_epoch;
    uintptr_t b0 = std::max(off, w * 4), b1 = std::min(end, w * 4 + 4);
    if (__builtin_expect(b1 - b0 != 4 || (fresh && (meta & meta_split)), 0))
      check_bytes(w, meta, fresh, b0, b1, a, size, write, pc, vol, in_shared, mine);
    else
      check_cell(cell, meta, fresh, a, size, write, pc, vol, in_shared, mine);
  }
}

// Whether the record r (not 0) leaves an access nothing to report, as relate() would find it
// (same_thread without many readers, ordered by a barrier, or stale); the worker's state is
// passed in, read once by the caller.
__attribute__((always_inline)) inline bool quiet_record(uint64_t r, uint32_t me, uint32_t base,
                                                        unsigned nthreads, unsigned bar,
                                                        bool in_shared) {
  uint32_t g = rec_gid1(r);
  if (g == me) return (r & flag_many_readers) == 0;
  if (r & flag_many_blocks) return false;
  if (g - base >= nthreads) return in_shared; // another block's: stale in __shared__ memory
  return rec_bar(r) != bar;
}

// The common case of a race check, inline in the callback: one aligned word whose cell is of this
// epoch and not split, where nothing can be reported (the other thread's record is this thread's,
// none, of an earlier barrier interval, or of another block in __shared__ memory), and no read of
// __shared__ memory that no thread of the block wrote. It makes exactly the stores check_cell
// makes then (for a read, whatever other readers recorded: a read beside reads is no race);
// anything else (a race, a first access in the epoch, a write after many readers, two
// threads of one warp between __syncwarp()s, a word in byte cells) returns false and goes the full
// way (check_races). A fresh cell needs no dirty range: it was put in one when its epoch began.
__attribute__((always_inline)) inline bool race_word_fast(uintptr_t off, bool write,
                                                          const void *pc) {
  uint64_t *cell = race_shadow + 3 * (off / 4);
  uint64_t meta = __atomic_load_n(&cell[2], __ATOMIC_RELAXED);
  if (__builtin_expect(meta_epoch(meta) != launch_epoch || (meta & meta_split) != 0, 0))
    return false;
  uint64_t writer = __atomic_load_n(&cell[0], __ATOMIC_RELAXED);
  uint64_t reader = __atomic_load_n(&cell[1], __ATOMIC_RELAXED);
  // The worker's state, read once (plain values: no lambda capture, no reload after the atomics).
  const bool in_shared = off >= global_bytes;
  const uint32_t base = itls.gid1_base, tid = cusim_tls.tid, me = base + tid;
  const unsigned nthreads = itls.nthreads, bar_gen = *itls.bar_gen, bar = bar_gen & 0x7FFFFu;
  const uint32_t warp_gen = itls.warp_gen[tid >> 5];
  const uint64_t mine = make_record(me, bar_gen, warp_gen);
  if (!write) {
    if (writer != 0 ? !quiet_record(writer, me, base, nthreads, bar, in_shared) ||
                          rec_gid1(writer) - base >= nthreads
                    : in_shared)
      return false; // (a read of __shared__ memory no thread of this block wrote: the full way)
    uint64_t next = mine;
    if (reader != 0) {
      // What check_cell makes of the reader record (relate(), with the state read above): a read
      // beside other reads is never a race; the record keeps the readers' spread for a later write.
      uint32_t g = rec_gid1(reader), t = g - base;
      if (g == me) {
        if ((reader & flag_many_readers) && same_epoch(reader, mine)) next |= reader & reader_flags;
      } else {
        bool unordered = (reader & flag_many_blocks) ? true
                         : t >= nthreads             ? !in_shared
                         : rec_bar(reader) != bar    ? false
                                                     : !((t >> 5) == (tid >> 5) &&
                                                      rec_warp(reader) != (warp_gen & 0x3FFu) &&
                                                      !(reader & flag_many_warps));
        if (unordered)
          next |= flag_many_readers | (reader & reader_flags) |
                  (t >= nthreads            ? flag_many_blocks
                   : (t >> 5) != (tid >> 5) ? flag_many_warps
                                            : 0);
      }
      // Readers in more than one block and no write in this epoch: later reads of this global
      // word skip its cell (read_shared) until a write ends it (check_races).
      if ((next & flag_many_blocks) && writer == 0 && !in_shared)
        __atomic_store_n(&read_shared[off / 4], (uint16_t)launch_epoch, __ATOMIC_RELAXED);
      // Many readers already, in the same barrier and warp epochs, with the same spread: this
      // read changes nothing a later write is judged by (only which reader is named).
      if ((reader & flag_many_readers) && (uint32_t)reader == (uint32_t)next) return true;
    }
    if (next != reader) {
      __atomic_store_n(&cell[1], next, __ATOMIC_RELAXED);
      __atomic_store_n(&cell[2], (meta & ~(pc_mask << 23)) | code_offset(pc) << 23,
                       __ATOMIC_RELAXED);
    }
    return true;
  }
  if (reader != 0) {
    if (!quiet_record(reader, me, base, nthreads, bar, in_shared)) return false;
    __atomic_store_n(&cell[1], 0, __ATOMIC_RELAXED);
  }
  // A write ends the word's read_shared mark here too: a marked word's record spans blocks and
  // sends the write the full way, unless another worker's read overwrote that record meanwhile
  // (the records are updated without a lock); the mark must not outlive a write either way.
  if (!in_shared && __atomic_load_n(&read_shared[off / 4], __ATOMIC_RELAXED) != 0)
    __atomic_store_n(&read_shared[off / 4], 0, __ATOMIC_RELAXED);
  if (writer != mine) __atomic_store_n(&cell[0], mine, __ATOMIC_RELAXED);
  uint64_t next_meta = (meta & ~pc_mask) | code_offset(pc);
  if (next_meta != meta) __atomic_store_n(&cell[2], next_meta, __ATOMIC_RELAXED);
  return true;
}

__attribute__((always_inline)) inline void check(uintptr_t a, unsigned size, bool write,
                                                 const void *pc, bool atomic = false,
                                                 bool vol = false) {
  uintptr_t off = a - arena_base;
  if (__builtin_expect(off >= arena_bytes || arena_base == 0, 1)) return;
  if (!itls.on || cusim_tls.blk == nullptr) return; // host code, or the runtime between blocks
  if (__builtin_expect(pending_uninit.set, 0) && *itls.bar_gen != pending_uninit.bar_gen)
    report_uninit(); // a barrier passed and no race explained the read
  // Bounds: each granule the access touches must be addressable up to the bytes it uses.
  uintptr_t end = off + size;
  for (uintptr_t g = off / 8; g * 8 < end; ++g) {
    unsigned char v = bounds_shadow[g];
    if (__builtin_expect(v == 8, 1)) continue;
    uintptr_t last = std::min<uintptr_t>(end, g * 8 + 8) - g * 8; // bytes used in this granule
    if (v == freed_mark || v < last) report_bounds(a, size, write, pc);
  }
  if (__builtin_expect(prof_on, 0)) profile_access(a, size, write, pc, atomic, off >= global_bytes);
  if (__builtin_expect(watch_on, 0)) watch_access(a, size, write, atomic);
  if (atomic) return;
  if (off - big_start < global_bytes - big_start) return; // a big block: bounds only
  if (itls.gid1_base == 0) return; // grid too large to number its threads in 32 bits
  if (size == 4 && (off & 3) == 0 && race_word_fast(off, write, pc)) return;
  check_races(a, off, size, write, pc, vol);
}

// The race records of an access of a race-checked block (after its bounds).
template <unsigned N, bool W, bool V>
__attribute__((noinline)) void race_check(uintptr_t a, uintptr_t off, const void *pc) {
  if (N == 4 && !W && (off & 3) == 0 && off < big_start && is_read_shared(off)) return;
  if (N == 4 && (off & 3) == 0 && race_word_fast(off, W, pc)) return;
  check_races(a, off, N, W, pc, V);
}
template <unsigned N, bool W, bool V>
__attribute__((noinline)) void check_full(uintptr_t a, const void *pc) {
  check(a, N, W, pc, false, V);
}
// The callbacks' second half, out of line: a callback then tests its address against the arena
// and returns, with no frame to build, for every access outside it (the kernel's own variables,
// the scheduler's state, host code) and for all of them when the checker is off. This half has no
// frame either: every call it makes is a tail call, so a bounds-only access, or a race check that
// race_word_fast settles, saves no register. Anything unusual (a read of uninitialized __shared__
// memory pending, the profiler, watched ranges, a granule not wholly addressable) goes to
// check_full, which is check() as it stands.
template <unsigned N, bool W, bool V>
__attribute__((noinline)) void check_in_arena_slow(uintptr_t a, const void *pc) {
  uintptr_t off = a - arena_base;                   // inside the arena: the callback tested it
  if (!itls.on || cusim_tls.blk == nullptr) return; // host code, or the runtime between blocks
  if (__builtin_expect(pending_uninit.set | prof_on | watch_on, 0))
    return check_full<N, W, V>(a, pc);
  static_assert(N <= 16, "an access spans at most three granules");
  uintptr_t g0 = off / 8, g1 = (off + N - 1) / 8;
  if (__builtin_expect((bounds_shadow[g0] ^ 8) | (bounds_shadow[g1] ^ 8) |
                           (g1 - g0 > 1 ? bounds_shadow[g0 + 1] ^ 8 : 0),
                       0))
    return check_full<N, W, V>(a, pc);
  if (off - big_start < global_bytes - big_start) return; // a big block: bounds only
  if (itls.gid1_base == 0) return; // grid too large to number its threads in 32 bits
  return race_check<N, W, V>(a, off, pc);
}

// The race records of an aligned word whose bounds check_in_arena found addressable: race_word_fast
// settles the common case; anything else goes the full way (check_races), as check_in_arena_slow
// would send it after the same tests. Out of line and reached by a tail call, so that the bounds
// test before it (every access of a bounds-only block) saves no register.
template <bool W, bool V>
__attribute__((noinline)) void race_word(uintptr_t a, uintptr_t off, const void *pc) {
  if (!W && off < big_start && is_read_shared(off)) return;
  if (__builtin_expect(race_word_fast(off, W, pc), 1)) return;
  return check_races(a, off, 4, W, pc, V);
}

// An aligned word in a running block, with nothing unusual on, wholly addressable: a bounds-only
// block returns, a race-checked one tail-calls race_word. No call in it is anything but a tail
// call, and it keeps few values, so it builds no frame: a bounds-only access (the element-wise
// kernel over big arrays) is a leaf of about 30 instructions. Anything else (unaligned, a block
// not running, a pending uninitialized-__shared__ read, the profiler, watched ranges, a granule
// not addressable for the 4 bytes) goes to check_in_arena_slow, which does the whole check from
// the start. The granule's addressable bytes: 8, or at least the first (off % 8) + 4 (the last
// word of an allocation whose size is not a multiple of 8).
template <unsigned N, bool W, bool V>
__attribute__((noinline)) void check_in_arena(uintptr_t a, const void *pc) {
  uintptr_t off = a - arena_base;
  // Aligned (so within one page), on a page whose every byte is addressable: no granule to look
  // at. (A big block's pages the callback settled already.)
  if (__builtin_expect(itls.fast & ((off & (N - 1)) == 0), 1)) {
    unsigned v = page_ok[off / ok_page];
    if (v == page_big) return;
    if (__builtin_expect(v == page_small, 1)) {
      if (itls.gid1_base == 0) return; // grid too large to number its threads in 32 bits
      if constexpr (N == 4) return race_word<W, V>(a, off, pc);
      return race_check<N, W, V>(a, off, pc);
    }
  }
  if constexpr (N == 4) {
    if (__builtin_expect(!((off & 3) | !itls.fast), 1)) {
      unsigned v = bounds_shadow[off / 8];
      if (__builtin_expect(v <= 8 && v >= (off & 7) + 4, 1)) {
        if (off - big_start < global_bytes - big_start) return; // a big block: bounds only
        if (itls.gid1_base == 0) return; // grid too large to number its threads in 32 bits
        return race_word<W, V>(a, off, pc);
      }
    }
  }
  return check_in_arena_slow<N, W, V>(a, pc);
}

void check_range(const void *p, size_t n, bool write, const void *pc) {
  uintptr_t a = (uintptr_t)p;
  while (n > 0) {
    unsigned chunk = (unsigned)std::min<size_t>(n, 16);
    check(a, chunk, write, pc);
    a += chunk;
    n -= chunk;
  }
}

// Gives back the pages of a freed block of global memory and of its shadows (arena_mu held or
// not: it touches only the block's own ranges). Zero in the bounds shadow is "not addressable",
// so a use after the free is still caught; only the granules at its edges keep the freed mark (a
// free in a loop would otherwise keep one shadow page per 32 KiB freed).
void release_pages(uintptr_t off, size_t bytes) {
  void *p = (void *)(arena_base + off);
  madvise(p, bytes, MADV_DONTNEED);
  uintptr_t rlo = round_up((uintptr_t)(race_shadow + 3 * (off / 4)), page);
  uintptr_t rhi = (uintptr_t)(race_shadow + 3 * ((off + bytes) / 4)) / page * page;
  if (rhi > rlo) madvise((void *)rlo, rhi - rlo, MADV_DONTNEED);
  if (off < big_start) { // and its byte cells
    rlo = round_up((uintptr_t)byte_cells(off), page);
    rhi = (uintptr_t)byte_cells(off + bytes) / page * page;
    if (rhi > rlo) madvise((void *)rlo, rhi - rlo, MADV_DONTNEED);
    rlo = round_up((uintptr_t)(read_shared + off / 4), page); // and its read_shared marks
    rhi = (uintptr_t)(read_shared + (off + bytes) / 4) / page * page;
    if (rhi > rlo) madvise((void *)rlo, rhi - rlo, MADV_DONTNEED);
  }
  uintptr_t blo = round_up((uintptr_t)(bounds_shadow + off / 8), page);
  uintptr_t bhi = (uintptr_t)(bounds_shadow + (off + bytes) / 8) / page * page;
  if (bhi > blo) madvise((void *)blo, bhi - blo, MADV_DONTNEED);
}

// A freed range of `bytes` (page-rounded) in the right part of the arena, aligned to `align`, that
// has passed the quarantine, in *off; false when none (arena_mu held).
bool take_reusable(size_t bytes, bool big, size_t align, uintptr_t *off) {
  auto range = reusable.equal_range(bytes);
  for (auto it = range.first; it != range.second; ++it) {
    if ((it->second >= big_start) != big || it->second % align != 0) continue;
    *off = it->second;
    reusable.erase(it);
    reusable_bytes -= bytes;
    return true;
  }
  return false;
}
} // namespace

// ---- the runtime's side -------------------------------------------------------------------------
bool checker_on() {
  ensure_init();
  return arena_base != 0;
}

void *arena_alloc(size_t size, bool shared) {
  if (!checker_on()) return nullptr;
  size_t asked = size ? size : 1, bytes = round_up(asked, page);
  size_t align = asked >= (size_t(2) << 20) ? size_t(2) << 20 : page;
  // The gap before a block: nothing there is addressable, so a runaway index lands in a gap and
  // not in the neighbouring array (a gap grows with the block, up to 1 GiB).
  size_t gap =
      std::max<size_t>(shared ? page : size_t(64) << 10, std::min<size_t>(bytes, size_t(1) << 30));
  uintptr_t off;
  bool reused = false;
  {
    std::lock_guard<std::mutex> lock(arena_mu);
    if (shared) { // a block of the same size that a worker freed at the end of a launch
      auto it = shared_cache.find(size);
      if (it != shared_cache.end()) {
        off = it->second;
        shared_cache.erase(it);
        block_sizes[off] = size;
        return (void *)(arena_base + off);
      }
    }
    bool big = !shared && asked > race_max_bytes;
    if (!shared && take_reusable(bytes, big, align, &off)) { // past the quarantine: its gap too
      reused = true;
    } else {
      uintptr_t &top = shared ? shared_top : big ? big_top : global_top;
      uintptr_t limit = shared ? arena_bytes : big ? global_bytes : big_start;
      off = round_up(top + gap, align);
      if (off + bytes + gap > limit) return nullptr; // full: unchecked from now on
      top = off + bytes;
    }
    block_sizes[off] = size;
  }
  void *p = (void *)(arena_base + off);
  if (mprotect(p, bytes, PROT_READ | PROT_WRITE) != 0) return nullptr;
#if defined(MADV_HUGEPAGE)
  if (align > page && !reused) madvise(p, bytes, MADV_HUGEPAGE);
#endif
  // A reused range still holds the freed mark (and what its last owner left in it, as a GPU's
  // cudaMalloc may hand back); its race records are of older launches, so they count for nothing.
  if (reused) std::memset(bounds_shadow + off / 8, 0, bytes / 8);
  set_bounds(off, size, true);
  return p;
}

bool arena_free(void *p) {
  uintptr_t off = (uintptr_t)p - arena_base;
  if (arena_base == 0 || off >= arena_bytes) return false;
  size_t size;
  {
    std::lock_guard<std::mutex> lock(arena_mu);
    auto it = block_sizes.find(off);
    if (it == block_sizes.end()) return true; // not a block's start: the caller reports it
    size = it->second;
    block_sizes.erase(it);
    // Shared memory is kept for the next launch (its records are of an older epoch by then):
    // a launch after a launch then costs no new pages.
    if (off >= global_bytes && shared_cache.size() < 256) {
      shared_cache.emplace(size, off);
      return true;
    }
  }
  size_t bytes = round_up(size ? size : 1, page);
  // No access from here on: the kernel's are stopped by the freed mark, the host's fault.
  mprotect(p, bytes, PROT_NONE);
  set_bounds(off, size ? size : 1, false);
  if (off >= global_bytes || bytes > reuse_max_block) { // given back at once, never reused
    release_pages(off, bytes);
    return true;
  }
  // Into the quarantine, pages kept (see quarantine_max); what leaves it may be reused.
  std::vector<freed_range> given_back;
  {
    std::lock_guard<std::mutex> lock(arena_mu);
    quarantine.push_back({off, bytes});
    quarantine_bytes += bytes;
    while (quarantine.size() > quarantine_frees &&
           quarantine_bytes - quarantine.front().bytes >= quarantine_max) {
      freed_range r = quarantine.front();
      quarantine.pop_front();
      quarantine_bytes -= r.bytes;
      reusable.emplace(r.bytes, r.off);
      reusable_bytes += r.bytes;
    }
    while (reusable_bytes > reusable_max) { // the largest go back to the system for good
      auto last = std::prev(reusable.end());
      given_back.push_back({last->second, last->first});
      reusable_bytes -= last->first;
      reusable.erase(last);
    }
  }
  for (const freed_range &r : given_back) release_pages(r.off, r.bytes);
  return true;
}

bool in_arena(const void *p) {
  return arena_base != 0 && (uintptr_t)p - arena_base < arena_bytes;
}

void checker_mark(const void *p, size_t bytes, bool addressable) {
  if (!in_arena(p)) return;
  set_bounds((uintptr_t)p - arena_base, bytes ? bytes : 1, addressable);
}

// Where the checker cannot look, the first launch says so in one line: a wrong answer with no
// message (warp-synchronous code without __syncwarp(), a race) must not read as a verdict.
void checker_note_off() {
  static std::atomic<bool> said{false};
  if (checker_on() || said.load(std::memory_order_relaxed) || said.exchange(true)) return;
  if (requested && !off_by_env) return; // the arena could not be reserved: init() said so
#if defined(__SANITIZE_ADDRESS__)
  // The sim-asan build is a second look beside the checked one (workbook check NN --asan says it
  // does not count as a check), and its tests read the programs' output line by line.
  if (!off_by_env) return;
#endif
  const char *why = off_by_env ? "CUSIM_MEMCHECK=0 turns the memory checker off"
                    : unchecked_by_build
                        ? "nvcc-sim --unchecked built this program without the memory checker"
                        : "this program was built without the memory checker";
  char text[640];
  std::snprintf(text, sizeof text,
                "%s: races between threads (warp-synchronous code without __syncwarp() among "
                "them) go unreported, as do a kernel's races with work on other streams, reads "
                "of uninitialized __shared__ memory, out-of-bounds accesses that stay in mapped "
                "memory and out-of-range implicit float-to-integer conversions (x86's answer, "
                "not the GPU's), so a wrong answer may come with no message",
                why);
  print_message("cusim: note: ", text);
}

bool checker_watch(const std::vector<watch_range> &ranges, bool footprint) {
  if (!checker_on()) return false;
  std::vector<size_t> order(ranges.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(),
            [&](size_t x, size_t y) { return ranges[x].lo < ranges[y].lo; });
  watch_slots.reset(new watch_slot[ranges.size()]);
  watch_n = ranges.size();
  uintptr_t max_hi = 0;
  for (size_t k = 0; k < watch_n; ++k) {
    const watch_range &r = ranges[order[k]];
    watch_slot &w = watch_slots[k];
    w.lo = r.lo;
    w.hi = r.hi;
    max_hi = std::max(max_hi, r.hi);
    w.max_hi = max_hi;
    w.index = order[k];
    w.other_writes = r.other_writes;
    w.other_atomic = r.other_atomic;
    w.hit_lo.store(UINTPTR_MAX);
    w.hit_hi.store(0);
    w.wrote.store(false);
  }
  footprint_on = footprint;
  if (footprint) {
    ++footprint_gen;
    std::lock_guard<std::mutex> lock(footprint_mu);
    footprint_workers.clear();
  }
  watch_on = watch_n != 0 || footprint;
  return true;
}

std::vector<watch_hit> checker_unwatch(kernel_footprint *footprint) {
  std::vector<watch_hit> hits(watch_n);
  for (size_t k = 0; k < watch_n; ++k) {
    watch_slot &w = watch_slots[k];
    uintptr_t lo = w.hit_lo.load(), hi = w.hit_hi.load();
    hits[w.index] = watch_hit{lo, hi, hi > lo, w.wrote.load()};
  }
  if (footprint_on && footprint) {
    std::lock_guard<std::mutex> lock(footprint_mu);
    for (int kind = 0; kind < 3; ++kind) {
      auto &out = kind == 0 ? footprint->reads : kind == 1 ? footprint->writes : footprint->atomics;
      out.clear();
      for (footprint_runs *f : footprint_workers) {
        out.insert(out.end(), f->closed[kind].begin(), f->closed[kind].end());
        for (auto &o : f->open[kind])
          if (o.second != 0) out.push_back(o);
        footprint->complete = footprint->complete && !f->overflow;
      }
      std::sort(out.begin(), out.end());
      size_t m = 0; // merge runs that touch or overlap
      for (size_t k = 0; k < out.size(); ++k) {
        if (m > 0 && out[k].first <= out[m - 1].second)
          out[m - 1].second = std::max(out[m - 1].second, out[k].second);
        else
          out[m++] = out[k];
      }
      out.resize(m);
    }
    footprint_workers.clear();
  }
  footprint_on = false;
  watch_on = false;
  watch_n = 0;
  watch_slots.reset();
  return hits;
}

void checker_launch_begin() {
  std::lock_guard<std::mutex> lock(dirty_mu);
  if (++launch_epoch <= 0xFFFF) {
    if (any_fenced.load()) {
      std::lock_guard<std::mutex> fl(fenced_mu);
      fenced.clear();
      any_fenced.store(false);
    }
    return;
  }
  // The epochs wrapped: every record written since the last wrap is cleared for real.
  launch_epoch = 1;
  for (int k = 0; k < 2; ++k) {
    if (dirty_hi[k] > dirty_lo[k]) {
      uintptr_t lo = (uintptr_t)(race_shadow + 3 * dirty_lo[k]) / page * page;
      uintptr_t hi = round_up((uintptr_t)(race_shadow + 3 * dirty_hi[k]), page);
      madvise((void *)lo, hi - lo, MADV_DONTNEED); // zero again
      // and the byte cells of those words
      lo = (uintptr_t)byte_cells(4 * dirty_lo[k]) / page * page;
      hi = round_up((uintptr_t)byte_cells(4 * dirty_hi[k]), page);
      madvise((void *)lo, hi - lo, MADV_DONTNEED);
      if (k == 0) { // and the read_shared marks of global words
        lo = (uintptr_t)(read_shared + dirty_lo[0]) / page * page;
        hi = round_up((uintptr_t)(read_shared + std::min<uintptr_t>(dirty_hi[0], big_start / 4)),
                      page);
        if (hi > lo) madvise((void *)lo, hi - lo, MADV_DONTNEED);
      }
    }
    dirty_lo[k] = UINTPTR_MAX;
    dirty_hi[k] = 0;
  }
  if (any_fenced.load()) {
    std::lock_guard<std::mutex> fl(fenced_mu);
    fenced.clear();
    any_fenced.store(false);
  }
}

void checker_block_end() {
  if (__builtin_expect(pending_uninit.set, 0)) report_uninit();
}

bool checker_fast_ok() {
  return !prof_on && !watch_on;
}

void checker_worker_done() {
  itls.on = false;
  itls.fast = false;
  pending_uninit.set = false; // (a block that failed leaves its read unreported)
  checker_flush_worker();
}

void checker_flush_worker() {
  if (my_hi[0] == 0 && my_hi[1] == 0) return;
  std::lock_guard<std::mutex> lock(dirty_mu);
  for (int k = 0; k < 2; ++k) {
    dirty_lo[k] = std::min(dirty_lo[k], my_lo[k]);
    dirty_hi[k] = std::max(dirty_hi[k], my_hi[k]);
    my_lo[k] = UINTPTR_MAX;
    my_hi[k] = 0;
  }
}

// ---- the exit status (issue 27) -----------------------------------------------------------------
// A program from outside the workbook often ignores a kernel's error and exits 0; a user would then
// take a run the checker stopped for a pass. As compute-sanitizer's --error-exitcode does, a
// process in which the checker stopped a kernel and that exits 0 exits with CUSIM_ERROR_EXITCODE
// (default 1; 0 keeps the program's own status) and one line saying why. The workbook's harness
// gives its own verdict (cusim_exit_status_is_the_verdict) and is left alone.
namespace {
std::atomic<unsigned> stops{0};
char first_stop[160]; // the first stop's "data race at FILE:LINE" (written by the first only)
std::atomic<bool> own_verdict{false};

void exit_status_hook(int status, void *) {
  unsigned n = stops.load();
  if (n == 0 || own_verdict.load()) return;
  if (status != 0) { // the program's own failure stands; say what stopped it and how to go on
    std::fflush(nullptr);
    std::fprintf(stderr,
                 "cusim: note: the memory checker stopped %u kernel%s (the first: %s) before the "
                 "program exited %d (CUSIM_MEMCHECK=0 runs without the checker and says what goes "
                 "unreported)\n",
                 n, n == 1 ? "" : "s", first_stop, status);
    std::fflush(stderr);
    return;
  }
  int code = 1;
  if (const char *e = std::getenv("CUSIM_ERROR_EXITCODE")) {
    char *end = nullptr;
    long v = std::strtol(e, &end, 10);
    if (end != e && *end == 0 && v >= 0 && v <= 255) code = (int)v;
  }
  if (code == 0) return;
  std::fflush(nullptr);
  std::fprintf(stderr,
               "cusim: error: the memory checker stopped %u kernel%s (the first: %s) and the "
               "program exited 0: exit status %d instead (CUSIM_ERROR_EXITCODE=0 keeps 0; "
               "CUSIM_MEMCHECK=0 runs without the checker and says what goes unreported)\n",
               n, n == 1 ? "" : "s", first_stop, code);
  std::fflush(stderr);
  _exit(code);
}
} // namespace

void checker_stopped(const char *message) {
  if (stops.fetch_add(1) != 0) return;
  size_t k = 0; // up to the first ": " (the kind of error and its line)
  while (message[k] && !(message[k] == ':' && message[k + 1] == ' ') && k + 1 < sizeof first_stop)
    ++k;
  std::memcpy(first_stop, message, k);
  first_stop[k] = 0;
}

// ---- asynchronous copies (async_copy.cpp) -------------------------------------------------------
// Issued: the source is read and the destination written by the issuing thread, now; so another
// thread that reads the destination before a barrier meets this write (a data race).
void checker_async_issue(void *dst, size_t bytes, const void *src, size_t src_bytes,
                         const void *pc) {
  if (arena_base == 0 || !itls.on || cusim_tls.blk == nullptr) return;
  if (src_bytes) check((uintptr_t)src, (unsigned)src_bytes, false, pc);
  if (bytes) check((uintptr_t)dst, (unsigned)bytes, true, pc);
}

namespace {
[[noreturn]] __attribute__((cold, noinline)) void
report_async(uintptr_t a, uint64_t other, uint32_t other_pc, bool read, unsigned issuer_tid,
             const char *file, int line, bool in_shared) {
  uint32_t them = rec_gid1(other), issuer = itls.gid1_base + issuer_tid;
  std::string who = them == issuer ? "the same thread" : thread_text(them, false);
  std::string at = other_pc ? source_line((void *)(code_base + other_pc)) : std::string();
  std::string msg = "memcpy_async's destination " + std::string(read ? "read" : "written") + at +
                    " before the wait that completes the copy: " + who +
                    (read ? " reads " : " writes ") + memory_text(a, in_shared) + " that " +
                    thread_text(issuer, false) + " copies into with memcpy_async at " +
                    place(file, line) +
                    " (on a GPU the copy may not have arrived yet; wait first: "
                    "pipeline.consumer_wait(), the barrier's wait, __pipeline_wait_prior(), "
                    "cg::wait(), then __syncthreads() if another thread reads it)";
  race_failed(msg.c_str());
}

// One cell of a destination at its copy's completion: any read since the issue, or a write by
// anything else than the issue itself, came before the data.
inline void async_cell(uint64_t *c, uintptr_t a, unsigned issuer_tid, const void *issue_pc,
                       const char *file, int line, bool in_shared) {
  uint64_t m = __atomic_load_n(&c[2], __ATOMIC_RELAXED);
  if (meta_epoch(m) != launch_epoch) return;
  uint64_t reader = __atomic_load_n(&c[1], __ATOMIC_RELAXED);
  uint64_t writer = __atomic_load_n(&c[0], __ATOMIC_RELAXED);
  if (reader != 0)
    report_async(a, reader, meta_reader_pc(m), true, issuer_tid, file, line, in_shared);
  if (writer != 0 && (rec_gid1(writer) != itls.gid1_base + issuer_tid ||
                      meta_writer_pc(m) != code_offset(issue_pc)))
    report_async(a, writer, meta_writer_pc(m), false, issuer_tid, file, line, in_shared);
}
} // namespace

void checker_async_done(void *dst, size_t bytes, unsigned issuer_tid, const void *issue_pc,
                        const char *file, int line) {
  if (arena_base == 0 || !itls.on || cusim_tls.blk == nullptr || bytes == 0) return;
  uintptr_t off = (uintptr_t)dst - arena_base;
  if (off >= arena_bytes) return;
  if (off - big_start < global_bytes - big_start) return; // a big block: bounds only
  if (itls.gid1_base == 0) return;
  bool in_shared = off >= global_bytes;
  uintptr_t end = off + bytes;
  for (uintptr_t w = off / 4; w <= (end - 1) / 4; ++w) {
    uint64_t *cell = race_shadow + 3 * w;
    uint64_t meta = __atomic_load_n(&cell[2], __ATOMIC_RELAXED);
    if (meta_epoch(meta) != launch_epoch) continue;
    if (meta & meta_split) {
      uint64_t *bytes_cells = byte_cells(w * 4);
      for (uintptr_t b = std::max(off, w * 4); b < std::min(end, w * 4 + 4); ++b)
        async_cell(bytes_cells + 3 * (b - w * 4), arena_base + b, issuer_tid, issue_pc, file, line,
                   in_shared);
    } else {
      async_cell(cell, arena_base + w * 4, issuer_tid, issue_pc, file, line, in_shared);
    }
  }
}

void checker_register_exit_hook() {
  static std::once_flag once;
  std::call_once(once, [] { on_exit(exit_status_hook, nullptr); });
}

} // namespace rt
} // namespace cusim

// ---- the compiler's callbacks (ThreadSanitizer's ABI) -------------------------------------------
using cusim::rt::arena_base;
using cusim::rt::arena_span;
using cusim::rt::check;
using cusim::rt::check_in_arena;
using cusim::rt::check_range;
using cusim::rt::itls;
using cusim::rt::ok_page;
using cusim::rt::page_big;
using cusim::rt::page_ok;
#define CUSIM_PC __builtin_return_address(0)

extern "C" {
void __tsan_init() {
  cusim::rt::requested = true;
  cusim::rt::checker_register_exit_hook();
}
void cusim_exit_status_is_the_verdict(void) {
  cusim::rt::own_verdict.store(true);
}
// Called at startup by programs built with nvcc-sim --unchecked (CUSIM_UNCHECKED_BUILD, in
// cusim_device.h): the note of checker_note_off then names the option.
void cusim_unchecked_build(void) {
  cusim::rt::unchecked_by_build = true;
}
void __tsan_func_entry(void *) {}
void __tsan_func_exit() {}
void __tsan_ignore_thread_begin() {}
void __tsan_ignore_thread_end() {}

// One compare for an address outside the arena; the check itself out of line (check_in_arena).
// Then, for an aligned access to a page of a big block whose every byte is addressable (the
// element-wise kernel over big arrays): two loads and a compare (page_ok).
#define CUSIM_CHECK(N, W, V)                                                                       \
  uintptr_t off_ = (uintptr_t)p - arena_base;                                                      \
  if (__builtin_expect(off_ >= arena_span, 1)) return;                                             \
  if (__builtin_expect(itls.fast & ((off_ & (N - 1)) == 0), 1) &&                                  \
      page_ok[off_ / ok_page] == page_big)                                                         \
    return;                                                                                        \
  check_in_arena<N, W, V>((uintptr_t)p, CUSIM_PC)
#define CUSIM_ACCESS(N)                                                                            \
  void __tsan_read##N(void *p) {                                                                   \
    CUSIM_CHECK(N, false, false);                                                                  \
  }                                                                                                \
  void __tsan_write##N(void *p) {                                                                  \
    CUSIM_CHECK(N, true, false);                                                                   \
  }                                                                                                \
  void __tsan_unaligned_read##N(void *p) {                                                         \
    CUSIM_CHECK(N, false, false);                                                                  \
  }                                                                                                \
  void __tsan_unaligned_write##N(void *p) {                                                        \
    CUSIM_CHECK(N, true, false);                                                                   \
  }                                                                                                \
  void __tsan_volatile_read##N(void *p) {                                                          \
    CUSIM_CHECK(N, false, true);                                                                   \
  }                                                                                                \
  void __tsan_volatile_write##N(void *p) {                                                         \
    CUSIM_CHECK(N, true, true);                                                                    \
  }                                                                                                \
  void __tsan_unaligned_volatile_read##N(void *p) {                                                \
    CUSIM_CHECK(N, false, true);                                                                   \
  }                                                                                                \
  void __tsan_unaligned_volatile_write##N(void *p) {                                               \
    CUSIM_CHECK(N, true, true);                                                                    \
  }
CUSIM_ACCESS(1)
CUSIM_ACCESS(2)
CUSIM_ACCESS(4)
CUSIM_ACCESS(8)
CUSIM_ACCESS(16)
#undef CUSIM_ACCESS
// A C++ object's vtable pointer: its constructor's store is a write and its load (clang's; gcc
// loads it with __tsan_read8) a read, so a virtual call on an object that one thread built in
// __shared__ memory before a barrier is no read of uninitialized memory.
void __tsan_vptr_update(void **p, void *) {
  CUSIM_CHECK(8, true, false);
}
void __tsan_vptr_read(void **p) {
  CUSIM_CHECK(8, false, false);
}
#undef CUSIM_CHECK

// (a range wholly outside the arena, as the thread loop's copy of a kernel's arguments: at once)
static inline bool outside_arena(const void *p, unsigned long n) {
  return n == 0 || ((uintptr_t)p - arena_base >= arena_span &&
                    (uintptr_t)p + (n - 1) - arena_base >= arena_span);
}
void __tsan_read_range(void *p, unsigned long n) {
  if (__builtin_expect(outside_arena(p, n), 1)) return;
  check_range(p, n, false, CUSIM_PC);
}
void __tsan_write_range(void *p, unsigned long n) {
  if (__builtin_expect(outside_arena(p, n), 1)) return;
  check_range(p, n, true, CUSIM_PC);
}
// clang's memory intrinsics, and in a clang build every memcpy, memmove and memset of an
// instrumented file (cusim_device.h aliases them here); gcc calls the C library's directly.
void *__tsan_memcpy(void *d, const void *s, unsigned long n) {
  if (!outside_arena(s, n)) check_range(s, n, false, CUSIM_PC);
  if (!outside_arena(d, n)) check_range(d, n, true, CUSIM_PC);
  return std::memcpy(d, s, n);
}
void *__tsan_memmove(void *d, const void *s, unsigned long n) {
  if (!outside_arena(s, n)) check_range(s, n, false, CUSIM_PC);
  if (!outside_arena(d, n)) check_range(d, n, true, CUSIM_PC);
  return std::memmove(d, s, n);
}
void *__tsan_memset(void *d, int c, unsigned long n) {
  if (!outside_arena(d, n)) check_range(d, n, true, CUSIM_PC);
  return std::memset(d, c, n);
}

// Atomics: done for real (sequentially consistent, whatever order was asked: never weaker), and
// checked for bounds; they take no part in race records.
void __tsan_atomic_thread_fence(int) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  if (cusim::rt::itls.on && cusim_tls.blk != nullptr && cusim::rt::itls.gid1_base != 0) {
    std::lock_guard<std::mutex> lock(cusim::rt::fenced_mu);
    cusim::rt::fenced.insert(cusim::rt::itls.gid1_base + cusim_tls.tid);
    cusim::rt::any_fenced.store(true, std::memory_order_relaxed);
  }
}
void __tsan_atomic_signal_fence(int) {
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

#define CUSIM_ATOMICS(N, T)                                                                        \
  T __tsan_atomic##N##_load(const volatile T *a, int) {                                            \
    check((uintptr_t)a, sizeof(T), false, CUSIM_PC, true);                                         \
    return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                   \
  }                                                                                                \
  void __tsan_atomic##N##_store(volatile T *a, T v, int) {                                         \
    check((uintptr_t)a, sizeof(T), true, CUSIM_PC, true);                                          \
    __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                      \
  }                                                                                                \
  T __tsan_atomic##N##_exchange(volatile T *a, T v, int) {                                         \
    check((uintptr_t)a, sizeof(T), true, CUSIM_PC, true);                                          \
    return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                            \
  }                                                                                                \
  T __tsan_atomic##N##_fetch_add(volatile T *a, T v, int) {                                        \
    check((uintptr_t)a, sizeof(T), true, CUSIM_PC, true);                                          \
    return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST);                                             \
  }                                                                                                \
  T __tsan_atomic##N##_fetch_sub(volatile T *a, T v, int) {                                        \
    check((uintptr_t)a, sizeof(T), true, CUSIM_PC, true);                                          \
    return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST);                                             \
  }                                                                                                \
  T __tsan_atomic##N##_fetch_and(volatile T *a, T v, int) {                                        \
    check((uintptr_t)a, sizeof(T), true, CUSIM_PC, true);                                          \
    return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST);                                             \
  }                                                                                                \
  T __tsan_atomic##N##_fetch_or(volatile T *a, T v, int) {                                         \
    check((uintptr_t)a, sizeof(T), true, CUSIM_PC, true);                                          \
    return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST);                                              \
  }                                                                                                \
  T __tsan_atomic##N##_fetch_xor(volatile T *a, T v, int) {                                        \
    check((uintptr_t)a, sizeof(T), true, CUSIM_PC, true);                                          \
    return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST);                                             \
  }                                                                                                \
  T __tsan_atomic##N##_fetch_nand(volatile T *a, T v, int) {                                       \
    check((uintptr_t)a, sizeof(T), true, CUSIM_PC, true);                                          \
    return __atomic_fetch_nand(a, v, __ATOMIC_SEQ_CST);                                            \
  }                                                                                                \
  int __tsan_atomic##N##_compare_exchange_strong(volatile T *a, T *c, T v, int, int) {             \
    check((uintptr_t)a, sizeof(T), true, CUSIM_PC, true);                                          \
    return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);        \
  }                                                                                                \
  int __tsan_atomic##N##_compare_exchange_weak(volatile T *a, T *c, T v, int, int) {               \
    check((uintptr_t)a, sizeof(T), true, CUSIM_PC, true);                                          \
    return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);        \
  }                                                                                                \
  T __tsan_atomic##N##_compare_exchange_val(volatile T *a, T c, T v, int, int) {                   \
    check((uintptr_t)a, sizeof(T), true, CUSIM_PC, true);                                          \
    __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);              \
    return c;                                                                                      \
  }
CUSIM_ATOMICS(8, unsigned char)
CUSIM_ATOMICS(16, unsigned short)
CUSIM_ATOMICS(32, unsigned int)
CUSIM_ATOMICS(64, unsigned long long)
#undef CUSIM_ATOMICS
} // extern "C"

#else // CUSIM_NO_CHECKER: under ThreadSanitizer (the sim-race preset), whose runtime owns __tsan_*

extern "C" void cusim_exit_status_is_the_verdict(void) {}
extern "C" void cusim_unchecked_build(void) {}

namespace cusim {
namespace rt {
__thread instr_thread itls;
bool checker_on() {
  return false;
}
void *arena_alloc(size_t, bool) {
  return nullptr;
}
bool arena_free(void *) {
  return false;
}
bool in_arena(const void *) {
  return false;
}
void checker_mark(const void *, size_t, bool) {} // graph memory's span: no checker to tell
void checker_note_off() {}                       // ThreadSanitizer reports the races itself
bool checker_watch(const std::vector<watch_range> &, bool) {
  return false;
}
std::vector<watch_hit> checker_unwatch(kernel_footprint *) {
  return {};
}
void checker_launch_begin() {}
bool checker_fast_ok() {
  return false;
}
void checker_worker_done() {}
void checker_block_end() {}
void checker_flush_worker() {}
void checker_stopped(const char *) {}
void checker_async_issue(void *, size_t, const void *, size_t, const void *) {}
void checker_async_done(void *, size_t, unsigned, const void *, const char *, int) {}
} // namespace rt
} // namespace cusim

#endif

// ---- shifts by the width or more (issue 27, cusim_shift.h) --------------------------------------
// The GPU's answer is given (shl and shr clamp the amount); where the checker is on, the first such
// shift of each line says once, as a note, that C++ leaves it undefined.
namespace cusim {
namespace dev {
void note_shift(const shift_site &site, bool left, unsigned amount, unsigned width) {
  if (!rt::checker_on()) return;
  static std::mutex mu;
  static std::set<std::pair<const char *, int>> said;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (!said.insert({site.file, site.line}).second || said.size() > 1000) return;
  }
  char by[48];
  if ((int)amount < 0) // PTX takes the amount as unsigned
    std::snprintf(by, sizeof by, "%d (%u as an unsigned amount)", (int)amount, amount);
  else
    std::snprintf(by, sizeof by, "%u", amount);
  char text[400];
  std::snprintf(text, sizeof text,
                "%s:%d: %s by %s on a %u-bit value: C++ leaves a shift by the width or more "
                "undefined; a GPU's %s gives %s, and so does the simulator (said once per line)",
                site.file, site.line, left ? "<<" : ">>", by, width, left ? "shl" : "shr",
                left ? "0" : "0 (-1 for a negative signed value)");
  rt::print_message("cusim: note: ", text);
}
void note_conversion(const shift_site &site, double value, unsigned bits, bool is_signed) {
  if (!rt::checker_on()) return;
  static std::mutex mu;
  static std::set<std::pair<const char *, int>> said;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (!said.insert({site.file, site.line}).second || said.size() > 1000) return;
  }
  char text[400];
  std::snprintf(text, sizeof text,
                "%s:%d: %g converted to a %u-bit %s integer: C++ leaves a value out of the type's "
                "range (or NaN) undefined; a GPU's cvt.rzi gives %s, and so does the simulator "
                "(said once per line)",
                site.file, site.line, value, bits, is_signed ? "signed" : "unsigned",
                value != value ? "0 for NaN" : "the nearest value in range");
  rt::print_message("cusim: note: ", text);
}
} // namespace dev
} // namespace cusim
