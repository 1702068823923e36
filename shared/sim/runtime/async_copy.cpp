// Asynchronous copies of libcu++ and CUDA (cuda::memcpy_async, __pipeline_memcpy_async,
// cooperative_groups::memcpy_async; the headers are include/cusim_async.h and its users).
//
// A copy is a write of its destination by the thread that issues it, made when it is issued (the
// memory checker records and checks it then: checker_async_issue), and its bytes arrive when a
// wait completes it (pipeline.consumer_wait, __pipeline_wait_prior, cg::wait, or the completion
// of the barrier phase the copy belongs to). A GPU's copy lands somewhere in between, so a
// program that reads the destination before the wait reads what was there before; the checker
// then reports it: another thread's read meets the issuing thread's write (a data race), and at
// the completion any read or write of the destination since the issue, the issuing thread's own
// included, is reported (checker_async_done).
//
// The copies wait here, per CUDA thread of the worker's running block, in issue order.
#include "internal.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#if defined(CUSIM_TSAN)
extern "C" void __tsan_read_range(void *addr, unsigned long size);
extern "C" void __tsan_write_range(void *addr, unsigned long size);
#endif

namespace cusim {
namespace rt {
std::string thread_text_of(uint3 t) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "(%u,%u,%u)", t.x, t.y, t.z);
  return buf;
}
namespace {
struct async_op {
  const void *key;          // the pipeline, barrier, or counter it belongs to
  unsigned long long batch; // its batch (commit) number within the key, for one thread
  void *dst;
  const void *src;
  size_t n, zfill; // bytes copied, then zero bytes after them
  const void *pc;  // where it was issued (the call of async_copy, in the simulator's header)
  const char *file;
  int line; // where the program issued it
};
thread_local std::vector<std::vector<async_op>> pending; // per thread of the running block
// Per thread, its last completed copies (their sites, for the checker's messages).
constexpr size_t done_kept = 16;
thread_local std::vector<std::vector<async_op>> done;
thread_local size_t pending_count = 0;
thread_local std::vector<unsigned long long> counters; // per thread: 2 counters (async_counter)
// Whether the running block issued a copy or took a counter: a block that did not (almost every
// block) leaves done and counters as they were, cleared, so the next block clears nothing (the
// clearing was 9% of a plain 512-thread kernel's time, simpleStreams).
thread_local bool used = false;

void finish(const async_op &op, unsigned tid, bool check) {
  if (check) checker_async_done(op.dst, op.n + op.zfill, tid, op.pc, op.file, op.line);
#if defined(CUSIM_TSAN)
  if (op.n) __tsan_read_range(const_cast<void *>(op.src), op.n);
  __tsan_write_range(op.dst, op.n + op.zfill);
#endif
  if (op.n) std::memmove(op.dst, op.src, op.n);
  if (op.zfill) std::memset((char *)op.dst + op.n, 0, op.zfill);
  if (tid < done.size()) {
    std::vector<async_op> &d = done[tid];
    if (d.size() == done_kept) d.erase(d.begin());
    d.push_back(op);
  }
}
} // namespace

void async_block_begin(unsigned nthreads) {
  if (pending.size() < nthreads) pending.resize(nthreads);
  if (done.size() < nthreads) done.resize(nthreads);
  if (counters.size() < 2 * (size_t)nthreads) counters.resize(2 * (size_t)nthreads, 0);
  if (!used) return; // (pending_count is 0 too: only a copy makes it more)
  for (auto &v : done) v.clear();
  if (pending_count)
    for (auto &v : pending) v.clear(); // (a block that failed left its copies)
  pending_count = 0;
  std::fill(counters.begin(), counters.end(), 0ull);
  used = false;
}

// Copies never waited for when the block ends arrive now, unchecked (a GPU writes them too).
// The copy whose destination holds a, issued by thread tid, not yet completed (*pending true) or
// among its last completed ones: its site.
bool async_issue_site(uintptr_t a, unsigned tid, const char **file, int *line, bool *is_pending) {
  for (int which = 0; which < 2; ++which) {
    const std::vector<std::vector<async_op>> &lists = which == 0 ? pending : done;
    if (tid >= lists.size()) continue;
    const std::vector<async_op> &v = lists[tid];
    for (size_t i = v.size(); i-- > 0;)
      if (a >= (uintptr_t)v[i].dst && a < (uintptr_t)v[i].dst + v[i].n + v[i].zfill) {
        *file = v[i].file;
        *line = v[i].line;
        *is_pending = which == 0;
        return true;
      }
  }
  return false;
}

void async_block_end() {
  if (!pending_count) return;
  for (size_t t = 0; t < pending.size(); ++t) {
    for (const async_op &op : pending[t]) finish(op, (unsigned)t, false);
    pending[t].clear();
  }
  pending_count = 0;
}
} // namespace rt

namespace dev {
void async_copy(const void *key, unsigned long long batch, void *dst, const void *src, size_t n,
                size_t zfill, const char *file, int line) {
  const void *pc = __builtin_return_address(0);
  if (cusim_tls.blk == nullptr) { // host code: at once
    if (n) std::memmove(dst, src, n);
    if (zfill) std::memset((char *)dst + n, 0, zfill);
    return;
  }
  std::vector<rt::async_op> &mine = rt::pending[cusim_tls.tid];
  // Two copies in flight into the same bytes land in no fixed order (and the later one would
  // hide, from the check at completion, the reads made before it).
  uintptr_t lo = (uintptr_t)dst, hi = lo + n + zfill;
  if (rt::checker_on())
    for (const rt::async_op &op : mine)
      if (lo < (uintptr_t)op.dst + op.n + op.zfill && (uintptr_t)op.dst < hi) {
        std::string msg = "memcpy_async into bytes still in flight at " + rt::place(file, line) +
                          ": thread " + rt::thread_text_of(cusim_tls.thread_idx) +
                          " copies into __shared__ or device memory that its memcpy_async at " +
                          rt::place(op.file, op.line) +
                          " has not finished copying into (the two land in no fixed order on a "
                          "GPU; wait for the first before reusing its destination)";
        rt::race_failed(msg.c_str());
      }
  rt::used = true;
  rt::checker_async_issue(dst, n + zfill, src, n, pc);
  mine.push_back({key, batch, dst, src, n, zfill, pc, file, line});
  rt::pending_count++;
}

void async_wait(const void *key, unsigned long long below) {
  if (cusim_tls.blk == nullptr || !rt::pending_count) return;
  unsigned tid = cusim_tls.tid;
  std::vector<rt::async_op> &v = rt::pending[tid];
  size_t kept = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i].key == key && v[i].batch < below) {
      rt::finish(v[i], tid, true);
      rt::pending_count--;
    } else {
      v[kept++] = v[i];
    }
  }
  v.resize(kept);
}

void async_complete_key(const void *key) {
  if (cusim_tls.blk == nullptr || !rt::pending_count) return;
  for (size_t t = 0; t < rt::pending.size(); ++t) {
    std::vector<rt::async_op> &v = rt::pending[t];
    size_t kept = 0;
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i].key == key) {
        rt::finish(v[i], (unsigned)t, true);
        rt::pending_count--;
      } else {
        v[kept++] = v[i];
      }
    }
    v.resize(kept);
  }
}

unsigned long long *async_counter(int which) {
  static thread_local unsigned long long host[2];
  if (cusim_tls.blk == nullptr) return &host[which & 1];
  rt::used = true;
  return &rt::counters[2 * (size_t)cusim_tls.tid + (which & 1)];
}
} // namespace dev
} // namespace cusim
