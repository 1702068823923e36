// Leaks: device, managed and pool memory, streams, events, cuBLAS handles, cuRAND generators, NVRTC
// programs and modules a program made and never released.
//
// At exit they are listed by the call that made them, as compute-sanitizer --leak-check full does
// for memory. A GPU releases them at exit without a word, so this is a warning and the exit status
// stays the program's. Not after a kernel failed (the program stopped where it was), and not with
// CUSIM_LEAK_CHECK=0.
//
// The workbook's harness asks earlier, before it prints PASS (cusim_task_leaks): a resource still
// live whose call is in the learner's file (one with "// ---- task N" regions) fails the check,
// naming the task and the line. Only the simulator can see this: on a GPU the check says nothing.
#include "api_state.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace cusim {
namespace rt {

thread_local const void *alloc_site = nullptr;

namespace {

// The live resources other than memory (memory is in the registry, api_state.hpp).
struct made {
  resource kind;
  const void *site;
};
std::mutex resources_mu;
std::map<const void *, made> &resources() {
  static auto *m = new std::map<const void *, made>; // never destroyed: read by the atexit report
  return *m;
}

bool leak_check_off() {
  const char *env = std::getenv("CUSIM_LEAK_CHECK");
  return env && std::strcmp(env, "0") == 0;
}

// What each kind is called in a message, and the call that releases it.
struct kind_words {
  const char *one, *many, *article, *verb, *release;
};
kind_words words(int kind) { // -1: device memory
  switch (kind) {
  case (int)resource::stream:
    return {"stream", "streams", "a ", "destroyed", "cudaStreamDestroy"};
  case (int)resource::event:
    return {"event", "events", "an ", "destroyed", "cudaEventDestroy"};
  case (int)resource::cublas_handle:
    return {"cuBLAS handle", "cuBLAS handles", "a ", "destroyed", "cublasDestroy"};
  case (int)resource::curand_generator:
    return {"cuRAND generator", "cuRAND generators", "a ", "destroyed", "curandDestroyGenerator"};
  case (int)resource::nvrtc_program:
    return {"NVRTC program", "NVRTC programs", "an ", "destroyed", "nvrtcDestroyProgram"};
  case (int)resource::module:
    return {"module", "modules", "a ", "unloaded", "cuModuleUnload"};
  }
  return {"allocation of device memory", "allocations of device memory", "an ", "freed",
          "cudaFree (or cudaFreeAsync)"};
}

// One live resource: kind (-1 device memory), the call that made it, its bytes (memory only).
struct held {
  int kind;
  const void *site;
  size_t bytes;
  mem_kind memory;
};

// Every live resource, or false when the registry is busy (exit() from inside a runtime call:
// say nothing, never hang).
bool collect(std::vector<held> &out, bool wait) {
  {
    std::unique_lock<std::mutex> lock(mu, std::defer_lock);
    if (wait)
      lock.lock();
    else if (!lock.try_lock())
      return false;
    for (const auto &kv : live)
      if (!(kv.second.flags & graph_memory_flag) &&
          (kv.second.kind == mem_kind::device || kv.second.kind == mem_kind::managed ||
           kv.second.kind == mem_kind::pool))
        out.push_back({-1, kv.second.site, kv.second.size, kv.second.kind});
  }
  std::unique_lock<std::mutex> lock(resources_mu, std::defer_lock);
  if (wait)
    lock.lock();
  else if (!lock.try_lock())
    return false;
  for (const auto &kv : resources()) out.push_back({(int)kv.second.kind, kv.second.site, 0, {}});
  return true;
}

// The memory part of the exit report, as before issue 24: grouped by place, the largest first.
void report_memory(const std::vector<held> &all, std::map<const void *, std::string> &resolved) {
  struct site_total {
    size_t count = 0, bytes = 0;
    bool managed = false, pooled = false, device = false;
  };
  std::map<std::string, site_total> sites;
  size_t bytes = 0, count = 0;
  for (const held &b : all) {
    if (b.kind != -1) continue;
    auto r = resolved.find(b.site);
    if (r == resolved.end()) r = resolved.emplace(b.site, source_line(b.site, true)).first;
    site_total &t = sites[r->second.empty() ? " at an unknown place" : r->second];
    t.count++;
    t.bytes += b.bytes;
    t.managed |= b.memory == mem_kind::managed;
    t.pooled |= b.memory == mem_kind::pool;
    t.device |= b.memory == mem_kind::device;
    bytes += b.bytes;
    count++;
  }
  if (count == 0) return;
  std::string text = std::to_string(count) + (count == 1 ? " allocation" : " allocations") +
                     " of device memory (" + std::to_string(bytes) +
                     " bytes) never freed (a GPU frees it at exit without a word; "
                     "compute-sanitizer --leak-check full reports it):";
  // The largest first (then by place): what matters most, in a stable order.
  std::vector<std::pair<std::string, site_total>> order(sites.begin(), sites.end());
  std::stable_sort(order.begin(), order.end(),
                   [](const auto &a, const auto &b) { return a.second.bytes > b.second.bytes; });
  int shown = 0;
  for (const auto &kv : order) {
    if (++shown > 5) {
      text += " and " + std::to_string(order.size() - 5) + " more places;";
      break;
    }
    const site_total &t = kv.second;
    const char *what = t.pooled    ? "cudaMallocAsync"
                       : t.managed ? "cudaMallocManaged"
                                   : "cudaMalloc";
    if (t.pooled + t.managed + t.device > 1) what = "several allocators";
    text += " " + std::to_string(t.count) + " from " + what + kv.first + " (" +
            std::to_string(t.bytes) + " bytes);";
  }
  text.back() = '.';
  print_message("cusim: warning: ", text.c_str());
}

// One line per other kind: "2 cuBLAS handles never destroyed (cublasDestroy): 2 at
// exercise.cu:57 (task 2)."
void report_resources(const std::vector<held> &all, std::map<const void *, std::string> &resolved) {
  for (int kind = (int)resource::stream; kind <= (int)resource::module; ++kind) {
    std::map<std::string, size_t> places;
    size_t count = 0;
    for (const held &h : all) {
      if (h.kind != kind) continue;
      auto r = resolved.find(h.site);
      if (r == resolved.end()) r = resolved.emplace(h.site, source_line(h.site, true)).first;
      places[r->second.empty() ? " at an unknown place" : r->second]++;
      count++;
    }
    if (count == 0) continue;
    kind_words w = words(kind);
    std::string text = std::to_string(count) + " " + (count == 1 ? w.one : w.many) + " never " +
                       w.verb + " (" + w.release + "; a GPU releases " +
                       (count == 1 ? "it" : "them") + " at exit without a word):";
    int shown = 0;
    for (const auto &kv : places) {
      if (++shown > 5) {
        text += " and " + std::to_string(places.size() - 5) + " more places;";
        break;
      }
      text += " " + std::to_string(kv.second) + kv.first + ";";
    }
    text.back() = '.';
    print_message("cusim: warning: ", text.c_str());
  }
}

void report_leaks() {
  if (leak_check_off() || sticky() != cudaSuccess) return;
  std::vector<held> all;
  if (!collect(all, false) || all.empty()) return;
  // One entry per place in the source (an unrolled loop allocates from several addresses).
  std::map<const void *, std::string> resolved;
  report_memory(all, resolved);
  report_resources(all, resolved);
}

// Does PATH hold the workbook's task regions ("// ---- task N")? The learner's file does; the
// driver (main.c), the harness and the simulator's headers do not.
bool learner_file(const std::string &path) {
  static std::map<std::string, bool> known;
  auto it = known.find(path);
  if (it != known.end()) return it->second;
  bool found = false;
  if (FILE *f = std::fopen(path.c_str(), "r")) {
    char buf[4096];
    int k = 0;
    while (!found && std::fgets(buf, sizeof buf, f)) {
      const char *p = std::strstr(buf, "---- task ");
      found = p && std::sscanf(p, "---- task %d", &k) == 1;
    }
    std::fclose(f);
  }
  known.emplace(path, found);
  return found;
}

} // namespace

void watch_for_leaks() {
  static std::once_flag once;
  std::call_once(once, [] { std::atexit(report_leaks); });
}

void resource_created(resource kind, const void *handle) {
  {
    std::lock_guard<std::mutex> lock(resources_mu);
    resources()[handle] = made{kind, alloc_site};
  }
  alloc_site = nullptr;
  watch_for_leaks();
}

void resource_released(const void *handle) {
  std::lock_guard<std::mutex> lock(resources_mu);
  resources().erase(handle);
}

} // namespace rt
} // namespace cusim

using namespace cusim::rt;

// The workbook's leak check (see cuda_runtime_api.h).
extern "C" int cusim_task_leaks(char *reason, size_t reason_size, char *hint, size_t hint_size) {
  if (reason_size) reason[0] = '\0';
  if (hint_size) hint[0] = '\0';
  if (leak_check_off() || sticky() != cudaSuccess) return 0;
  std::vector<held> all;
  collect(all, true);
  // The learner's: made by a call in a file with task regions. The first one in the file is named.
  struct found {
    const held *h;
    std::string path;
    long line;
  };
  std::map<const void *, found> by_site;
  std::vector<found> mine;
  for (const held &h : all) {
    auto it = by_site.find(h.site);
    if (it == by_site.end()) {
      found f{&h, "", 0};
      if (!resolve_site(h.site, true, &f.path, &f.line) || !learner_file(f.path)) f.line = 0;
      it = by_site.emplace(h.site, f).first;
    }
    if (it->second.line == 0) continue;
    found f = it->second;
    f.h = &h;
    mine.push_back(f);
  }
  if (mine.empty()) return 0;
  std::stable_sort(mine.begin(), mine.end(),
                   [](const found &a, const found &b) { return a.line < b.line; });
  const found &first = mine.front();
  kind_words w = words(first.h->kind);
  int task = task_at(first.path, first.line);
  std::string text;
  if (task > 0) text = "task " + std::to_string(task) + ": ";
  // The line alone: the file is the learner's own, and a long name would not fit the FAIL line.
  text += std::string(first.h->kind == -1 ? "device memory" : std::string(w.article) + w.one) +
          (first.h->kind == -1 ? " allocated on line " : " made on line ") +
          std::to_string(first.line) + " is never " + w.verb;
  std::snprintf(reason, reason_size, "%s", text.c_str());
  std::string more;
  if (mine.size() > 1)
    more = "; " + std::to_string(mine.size() - 1) + " more of your code's " +
           (mine.size() == 2 ? "resource is" : "resources are") + " still live";
  std::snprintf(hint, hint_size,
                "leak: made at %s:%ld; %s releases it (a GPU does at exit, silently: only the "
                "simulator sees it)%s",
                base_name(first.path.c_str()), first.line, w.release, more.c_str());
  return (int)mine.size();
}
