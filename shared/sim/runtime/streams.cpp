// Streams as concurrent as a GPU's, or more: one in-order queue per stream, run lazily.
//
// Work runs only when the host waits for it (cudaStreamSynchronize, an event it waits on, a
// synchronizing call such as cudaDeviceSynchronize or a blocking cudaMemcpy on the legacy
// stream), and then only what that wait covers: the stream's own earlier work and whatever it
// depends on. Work on a stream nobody waited for is not done when the host looks. Dependencies
// are vector clocks: each operation carries, per stream, the last operation of that stream known
// to come before it (stream order, cudaStreamWaitEvent, the legacy stream's implicit barrier with
// blocking streams, host synchronization). Two copies or memsets on different streams whose
// clocks do not order them and whose byte ranges overlap, one of them writing, are a stream race:
// reported when the second is issued, deterministically, whatever order they would run in. A
// kernel's bytes are known only while it runs: the memory checker then watches the bytes of the
// work on other streams it is not ordered with (kernel_watch_begin), and a conflict is the same
// stream race, reported when the kernel runs (whatever order the two ran in).
#include "internal.hpp"

#include <algorithm>
#include <cstdio>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace cusim {
namespace rt {
namespace {

enum class stream_kind { legacy, blocking, non_blocking };

struct op {
  uint64_t seq;
  vclock vc;
  bool deps_done = false;
  std::function<void()> fn;
};

struct stream_state {
  stream_kind kind = stream_kind::blocking;
  cudaStream_t handle = nullptr;
  int graph_branch = 0; // > 0: a stream of the runtime's own, for a CUDA graph's branch
  uint64_t issued = 0, done = 0;
  vclock vc; // the clock of its last issued operation
  std::deque<op> q;
};

struct access_record {
  uintptr_t lo, hi;
  bool write;
  int stream;
  uint64_t seq;
  std::string what;
  vclock vc; // what is ordered before it: a kernel that runs later may be ordered before it
  bool atomic = false; // a kernel's atomics (a write, but not against other atomics)
};

std::mutex smu; // guards everything below; never held while an operation runs
// Never destroyed: work still queued at exit is abandoned, as a GPU's is when the process ends
// (its queued launches stay reachable, not leaks, and no destructor races a late API call).
std::vector<stream_state> &table = *[] {
  auto *t = new std::vector<stream_state>(1); // index 0: the legacy default stream
  (*t)[0].kind = stream_kind::legacy;
  return t;
}();
std::map<cudaStream_t, int> index_of;            // created streams
std::map<std::thread::id, int> per_thread_index; // per-thread default streams
std::map<cudaEvent_t, point> event_points;       // the last record of each event
vclock host_vc;                                  // what the host has seen complete
std::vector<access_record> records;              // recent accesses not yet known complete
// Queued kernels that have not run yet, per stream (its index in table), in issue order. Only a
// kernel of another stream can be unordered with one, so a program that queues many launches on
// one stream (65,536 before a sync: 148 us a launch, all of it here) pays nothing for them.
std::vector<std::deque<point>> pending_kernels;
std::vector<access_record> watched; // what the running kernel is watched against
bool footprinting = false;          // the running kernel's bytes are kept
std::recursive_mutex run_mu;
bool running = false;
bool default_is_per_thread = false; // compiled with CUDA_API_PER_THREAD_DEFAULT_STREAM

uint64_t at(const vclock &c, size_t i) {
  return i < c.size() ? c[i] : 0;
}
void merge(vclock &into, const vclock &from) {
  if (into.size() < from.size()) into.resize(from.size(), 0);
  for (size_t i = 0; i < from.size(); ++i) into[i] = std::max(into[i], from[i]);
}

int resolve_locked(cudaStream_t s) {
  if (s == nullptr && default_is_per_thread) s = cudaStreamPerThread;
  if (s == nullptr || s == cudaStreamLegacy) return 0;
  if (s == cudaStreamPerThread) {
    auto id = std::this_thread::get_id();
    auto it = per_thread_index.find(id);
    if (it != per_thread_index.end()) return it->second;
    table.emplace_back();
    table.back().kind = stream_kind::blocking; // it synchronizes with the legacy stream
    table.back().handle = cudaStreamPerThread;
    return per_thread_index[id] = (int)table.size() - 1;
  }
  auto it = index_of.find(s);
  if (it != index_of.end()) return it->second;
  // Not registered (should not happen: callers validate): treat as a blocking stream of its own.
  table.emplace_back();
  table.back().handle = s;
  return index_of[s] = (int)table.size() - 1;
}

const char *stream_name(int i, char *buf, size_t n) {
  if (i == 0)
    std::snprintf(buf, n, "the default stream");
  else if (table[i].graph_branch > 0)
    std::snprintf(buf, n, "branch %d of a CUDA graph", table[i].graph_branch);
  else if (table[i].handle == cudaStreamPerThread)
    std::snprintf(buf, n, "a per-thread default stream");
  else
    std::snprintf(buf, n, "stream %p", (void *)table[i].handle);
  return buf;
}

// Checks the new operation's ranges against earlier unordered ones; records them.
// Returns true when a race was reported (the caller makes it sticky once smu is released).
bool check_accesses_locked(const point &p, const std::vector<mem_access> &acc, const char *what) {
  for (const mem_access &a : acc) {
    if (a.bytes == 0) continue;
    uintptr_t lo = (uintptr_t)a.p, hi = lo + a.bytes;
    for (const access_record &r : records) {
      if (r.stream == p.stream || r.seq <= at(p.vc, r.stream)) continue; // ordered
      if (!(r.write || a.write) || r.hi <= lo || hi <= r.lo) continue;
      char s1[64], s2[64];
      uintptr_t olo = std::max(lo, r.lo), ohi = std::min(hi, r.hi);
      report("stream race: %s on %s %s [%p, +%zu bytes), which %s on %s %s, and no event or "
             "synchronization orders the two (wait on an event, or use one stream)",
             what, stream_name(p.stream, s1, sizeof s1), a.write ? "writes" : "reads", (void *)olo,
             (size_t)(ohi - olo), r.what.c_str(), stream_name(r.stream, s2, sizeof s2),
             r.write ? "writes" : "reads");
      return true;
    }
  }
  for (const mem_access &a : acc) {
    if (a.bytes == 0) continue;
    records.push_back(access_record{(uintptr_t)a.p, (uintptr_t)a.p + a.bytes, a.write, p.stream,
                                    p.seq, what, p.vc});
  }
  if (records.size() > 65536) records.erase(records.begin(), records.begin() + 16384);
  return false;
}

// Whether f holds for a queued kernel of a stream other than `stream`.
template <class F> bool pending_elsewhere(int stream, F f) {
  for (size_t s = 0; s < pending_kernels.size(); ++s)
    if ((int)s != stream)
      for (const point &k : pending_kernels[s])
        if (f(k)) return true;
  return false;
}

// Record r and the operation at p: neither is ordered before the other.
bool unordered(const access_record &r, const point &p) {
  return r.stream != p.stream && r.seq > at(p.vc, r.stream) && at(r.vc, p.stream) < p.seq;
}

// The host now knows everything up to host_vc is complete: those accesses are ordered before
// anything issued from now on, but not before a kernel queued earlier that has not run yet.
void prune_locked() {
  records.erase(std::remove_if(records.begin(), records.end(),
                               [](const access_record &r) {
                                 if (r.seq > at(host_vc, r.stream)) return false;
                                 return !pending_elsewhere(
                                     r.stream, [&](const point &k) { return unordered(r, k); });
                               }),
                records.end());
}

// Runs stream i's operations up to seq n (each after what it depends on). Called with run_mu.
void run_until(int i, uint64_t n) {
  for (;;) {
    std::function<void()> fn;
    {
      std::unique_lock<std::mutex> lock(smu);
      auto &q = table[i].q;
      if (q.empty() || q.front().seq > n) return;
      op &front = q.front();
      if (!front.deps_done) {
        vclock vc = front.vc;
        lock.unlock();
        for (size_t u = 0; u < vc.size(); ++u)
          if ((int)u != i && vc[u] > 0) run_until((int)u, vc[u]);
        lock.lock();
        table[i].q.front().deps_done = true;
        continue;
      }
      fn = std::move(front.fn);
      table[i].done = front.seq;
      q.pop_front();
    }
    fn();
  }
}

// Runs what a wait on `p` covers, then lets the host know it is complete.
void host_waits(const point &p) {
  {
    std::lock_guard<std::recursive_mutex> run_lock(run_mu);
    if (running) return; // a host function running from a queue called a synchronizing API
    running = true;
    run_until(p.stream, p.seq);
    running = false;
  }
  std::lock_guard<std::mutex> lock(smu);
  merge(host_vc, p.vc);
  prune_locked();
}

} // namespace

// Operations ever enqueued (thrust_wait below skips its wait when none came since its last).
std::atomic<unsigned long long> enqueued_count{0};

point enqueue(cudaStream_t stream, std::function<void()> fn, const char *what,
              const std::vector<mem_access> &accesses) {
  enqueued_count.fetch_add(1, std::memory_order_acq_rel);
  // A capturing stream records the operation in its graph instead (graphs.cpp).
  if (captures_active.load(std::memory_order_relaxed) != 0 &&
      graph_takes_op(stream, fn, what, accesses))
    return point{};
  std::unique_lock<std::mutex> lock(smu);
  int i = resolve_locked(stream);
  vclock vc = table[i].vc;
  merge(vc, host_vc);
  if (table[i].kind == stream_kind::legacy) {
    for (auto &s : table)
      if (s.kind == stream_kind::blocking) merge(vc, s.vc);
  } else if (table[i].kind == stream_kind::blocking) {
    merge(vc, table[0].vc);
  }
  uint64_t seq = ++table[i].issued;
  if (vc.size() <= (size_t)i) vc.resize(i + 1, 0);
  vc[i] = seq;
  table[i].vc = vc;
  point p{i, seq, vc};
  bool race = !accesses.empty() && check_accesses_locked(p, accesses, what ? what : "an operation");
  table[i].q.push_back(op{seq, vc, false, std::move(fn)});
  lock.unlock();
  if (race) set_sticky(cudaErrorIllegalState);
  return p;
}

void kernel_queued(const point &p) {
  std::lock_guard<std::mutex> lock(smu);
  if (pending_kernels.size() <= (size_t)p.stream) pending_kernels.resize((size_t)p.stream + 1);
  pending_kernels[(size_t)p.stream].push_back(p);
}

// Two queued operations on different streams, neither ordered before the other.
bool unordered(const point &a, const point &b) {
  return a.stream != b.stream && a.seq > at(b.vc, a.stream) && b.seq > at(a.vc, b.stream);
}

bool kernel_watch_begin(const point &p) {
  std::vector<watch_range> ranges;
  bool keep = false;
  {
    std::lock_guard<std::mutex> lock(smu);
    watched.clear();
    for (const access_record &r : records)
      if (unordered(r, p)) {
        watched.push_back(r);
        ranges.push_back(watch_range{r.lo, r.hi, r.write, r.atomic});
      }
    // A kernel on another stream, queued and not ordered with this one: it will be watched
    // against this kernel's bytes when it runs.
    keep = pending_elsewhere(p.stream, [&](const point &k) { return unordered(k, p); });
  }
  if (ranges.empty() && !keep) return false;
  footprinting = keep;
  return checker_watch(ranges, keep); // kernels run one at a time (run_mu)
}

bool kernel_watch_end(const point &p, const detail::kernel_base *kernel, bool watching) {
  std::vector<watch_hit> hits;
  kernel_footprint fp;
  bool kept = watching && footprinting;
  if (watching) hits = checker_unwatch(kept ? &fp : nullptr);
  footprinting = false;
  if (!kernel) {
    hits.clear();
    kept = false;
  }
  if (kept && !fp.complete) {
    static std::atomic<bool> said{false};
    if (!said.exchange(true))
      print_message("cusim: note: ",
                    "a kernel touched too many separate byte ranges to keep them all: its stream "
                    "races with kernels on other streams may go unreported");
  }
  std::lock_guard<std::mutex> lock(smu);
  if (kept) {
    char what[160];
    std::snprintf(what, sizeof what, "kernel '%s' (launched at %s:%d)",
                  kernel->name ? kernel->name : "?", base_name(kernel->file), kernel->line);
    for (int w = 0; w < 3; ++w)
      for (const auto &run : w == 0 ? fp.reads : w == 1 ? fp.writes : fp.atomics)
        records.push_back(
            access_record{run.first, run.second, w != 0, p.stream, p.seq, what, p.vc, w == 2});
  }
  if ((size_t)p.stream < pending_kernels.size()) { // (the stream's first, as it runs in order)
    std::deque<point> &mine = pending_kernels[(size_t)p.stream];
    for (auto it = mine.begin(); it != mine.end(); ++it)
      if (it->seq == p.seq) {
        mine.erase(it);
        break;
      }
  }
  for (size_t k = 0; k < hits.size() && k < watched.size(); ++k) {
    if (!hits[k].any) continue;
    const access_record &r = watched[k];
    char s1[64], s2[64];
    bool legacy_pair = (p.stream == 0 && table[r.stream].kind == stream_kind::non_blocking) ||
                       (r.stream == 0 && table[p.stream].kind == stream_kind::non_blocking);
    std::string place = rt::place(kernel->file, kernel->line);
    report(
        "stream race: kernel '%s' launched at %s on %s %s [%p, +%zu bytes), which %s on %s "
        "%s, and no event or synchronization orders the two (wait on an event, or use one "
        "stream)%s",
        kernel->name ? kernel->name : "?", place.c_str(), stream_name(p.stream, s1, sizeof s1),
        hits[k].write ? "writes" : "reads", (void *)hits[k].lo, (size_t)(hits[k].hi - hits[k].lo),
        r.what.c_str(), stream_name(r.stream, s2, sizeof s2), r.write ? "writes" : "reads",
        legacy_pair ? "; a cudaStreamNonBlocking stream does not wait for the default stream" : "");
    watched.clear();
    return true;
  }
  watched.clear();
  return false;
}

void note_accesses(const point &p, const std::vector<mem_access> &accesses, const char *what) {
  bool race;
  {
    std::lock_guard<std::mutex> lock(smu);
    race = check_accesses_locked(p, accesses, what);
  }
  if (race) set_sticky(cudaErrorIllegalState);
}

void stream_created(cudaStream_t s, unsigned flags) {
  std::lock_guard<std::mutex> lock(smu);
  table.emplace_back();
  table.back().kind =
      (flags & cudaStreamNonBlocking) ? stream_kind::non_blocking : stream_kind::blocking;
  table.back().handle = s;
  index_of[s] = (int)table.size() - 1;
}

bool zero_is_per_thread() {
  std::lock_guard<std::mutex> lock(smu);
  return default_is_per_thread;
}

void stream_is_graph_branch(cudaStream_t s, int branch) {
  std::lock_guard<std::mutex> lock(smu);
  auto it = index_of.find(s);
  if (it != index_of.end()) table[it->second].graph_branch = branch;
}

void stream_destroyed(cudaStream_t s) {
  // Its queued work still runs (at the next device-wide synchronization); the handle may be
  // reused by a new stream.
  std::lock_guard<std::mutex> lock(smu);
  index_of.erase(s);
}

void wait_point(cudaStream_t stream, const point &p) {
  std::lock_guard<std::mutex> lock(smu);
  int i = resolve_locked(stream);
  merge(table[i].vc, p.vc);
}

void sync_stream(cudaStream_t stream) {
  point p;
  {
    std::lock_guard<std::mutex> lock(smu);
    int i = resolve_locked(stream);
    p = point{i, table[i].issued, table[i].vc};
  }
  host_waits(p);
}

void sync_legacy() {
  // A blocking call on the legacy stream waits for it and, through its implicit barrier, for
  // every blocking stream's earlier work; non-blocking streams go on.
  host_waits(enqueue(nullptr, [] {}));
}

cudaError_t query_stream(cudaStream_t stream) {
  point p;
  {
    std::lock_guard<std::mutex> lock(smu);
    int i = resolve_locked(stream);
    p = point{i, table[i].issued, table[i].vc};
    if (table[i].done < p.seq) {
      // Not finished: make progress (one operation), so a polling loop ends.
      uint64_t next = table[i].done + 1;
      p.seq = next;
    }
  }
  if (p.seq == 0) return cudaSuccess;
  {
    std::lock_guard<std::recursive_mutex> run_lock(run_mu);
    if (!running) {
      running = true;
      run_until(p.stream, p.seq);
      running = false;
    }
  }
  std::lock_guard<std::mutex> lock(smu);
  stream_state &s = table[p.stream];
  if (s.done < s.issued) return cudaErrorNotReady;
  merge(host_vc, s.vc);
  prune_locked();
  return cudaSuccess;
}

void run_queue() {
  std::vector<point> ends;
  {
    std::lock_guard<std::mutex> lock(smu);
    // Newest stream first: independent streams never run in the order they were issued in.
    for (int i = (int)table.size() - 1; i >= 0; --i)
      ends.push_back(point{i, table[i].issued, table[i].vc});
  }
  for (const point &p : ends) host_waits(p);
  std::fflush(stdout);
}

void event_recorded(cudaEvent_t e, const point &p) {
  std::lock_guard<std::mutex> lock(smu);
  event_points[e] = p;
}

void event_forgotten(cudaEvent_t e) {
  std::lock_guard<std::mutex> lock(smu);
  event_points.erase(e);
}

bool event_point(cudaEvent_t e, point *p) {
  std::lock_guard<std::mutex> lock(smu);
  auto it = event_points.find(e);
  if (it == event_points.end()) return false;
  *p = it->second;
  return true;
}

void sync_event(cudaEvent_t e) {
  point p;
  if (event_point(e, &p)) host_waits(p);
}

cudaError_t query_event(cudaEvent_t e) {
  point p;
  if (!event_point(e, &p)) return cudaSuccess;
  {
    std::lock_guard<std::mutex> lock(smu);
    if (table[p.stream].done >= p.seq) {
      merge(host_vc, p.vc);
      prune_locked();
      return cudaSuccess;
    }
    p.seq = table[p.stream].done + 1; // progress: one operation per query
  }
  {
    std::lock_guard<std::recursive_mutex> run_lock(run_mu);
    if (!running) {
      running = true;
      run_until(p.stream, p.seq);
      running = false;
    }
  }
  return cudaErrorNotReady;
}

void wait_event(cudaStream_t stream, cudaEvent_t e) {
  point p;
  if (event_point(e, &p)) wait_point(stream, p);
}

} // namespace rt
} // namespace cusim
namespace cusim {
namespace rt {

void forget_accesses(const void *p, size_t bytes) {
  uintptr_t lo = (uintptr_t)p, hi = lo + bytes;
  std::lock_guard<std::mutex> lock(smu);
  records.erase(std::remove_if(records.begin(), records.end(),
                               [&](const access_record &r) { return r.lo < hi && lo < r.hi; }),
                records.end());
}

} // namespace rt
} // namespace cusim

namespace cusim {
namespace detail {

// A program compiled with CUDA_API_PER_THREAD_DEFAULT_STREAM (nvcc --default-stream per-thread):
// stream 0 is the calling thread's default stream, blocking only with the legacy stream.
void use_per_thread_default_stream() {
  std::lock_guard<std::mutex> lock(rt::smu);
  rt::default_is_per_thread = true;
}

} // namespace detail
} // namespace cusim

namespace cusim {
namespace rt {

// What a wait on p would run, for the progress thread (progress.cpp): the host is not told.
void run_in_background(const point &p) {
  std::lock_guard<std::recursive_mutex> run_lock(run_mu);
  if (running) return; // cannot happen on the progress thread; kept as host_waits has it
  running = true;
  run_until(p.stream, p.seq);
  running = false;
}

} // namespace rt
} // namespace cusim

namespace cusim {
namespace detail {

// Thrust on the simulator (include/cccl/): an algorithm runs on the host, at once, where on a GPU
// it is work on the default stream, after what is queued there and before the call returns. So
// each first waits, as a blocking call on that stream does (cudaMemcpy). Thrust's dispatch runs
// for every element of some algorithms (a sort's swaps), so a wait with nothing enqueued since the
// last one (which then had nothing else enqueued beside its own marker) is skipped.
void thrust_wait() {
  static std::atomic<unsigned long long> waited_at{~0ULL};
  unsigned long long before = rt::enqueued_count.load(std::memory_order_acquire);
  if (before == waited_at.load(std::memory_order_acquire)) return;
  rt::sync_legacy(); // enqueues one marker and waits for it
  if (rt::enqueued_count.load(std::memory_order_acquire) == before + 1)
    waited_at.store(before + 1, std::memory_order_release);
}

} // namespace detail
} // namespace cusim
