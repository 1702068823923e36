// The leak report: at exit, device, managed and pool memory the program never freed is listed by
// the call that allocated it, as compute-sanitizer --leak-check full does. A GPU frees it at exit
// without a word, so this is a warning and the exit status stays the program's. Not after a
// kernel failed (the program stopped where it was), and not with CUSIM_LEAK_CHECK=0.
#include "api_state.hpp"

#include <algorithm>
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

struct site_total {
  size_t count = 0, bytes = 0;
  bool managed = false, pooled = false, device = false;
};

void report_leaks() {
  const char *env = std::getenv("CUSIM_LEAK_CHECK");
  if (env && std::strcmp(env, "0") == 0) return;
  if (sticky() != cudaSuccess) return;
  struct block {
    const void *site;
    size_t size;
    mem_kind kind;
  };
  std::vector<block> kept;
  {
    std::unique_lock<std::mutex> lock(mu, std::try_to_lock);
    if (!lock.owns_lock()) return; // exit() from inside a runtime call: say nothing, never hang
    for (const auto &kv : live)
      if (kv.second.kind == mem_kind::device || kv.second.kind == mem_kind::managed ||
          kv.second.kind == mem_kind::pool)
        kept.push_back({kv.second.site, kv.second.size, kv.second.kind});
  }
  if (kept.empty()) return;
  // One entry per place in the source (an unrolled loop allocates from several addresses).
  std::map<const void *, std::string> resolved;
  std::map<std::string, site_total> sites;
  size_t bytes = 0;
  for (const block &b : kept) {
    auto r = resolved.find(b.site);
    if (r == resolved.end()) r = resolved.emplace(b.site, source_line(b.site, true)).first;
    site_total &t = sites[r->second.empty() ? " at an unknown place" : r->second];
    t.count++;
    t.bytes += b.size;
    t.managed |= b.kind == mem_kind::managed;
    t.pooled |= b.kind == mem_kind::pool;
    t.device |= b.kind == mem_kind::device;
    bytes += b.size;
  }
  std::string text = std::to_string(kept.size()) +
                     (kept.size() == 1 ? " allocation" : " allocations") + " of device memory (" +
                     std::to_string(bytes) +
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

} // namespace

void watch_for_leaks() {
  static std::once_flag once;
  std::call_once(once, [] { std::atexit(report_leaks); });
}

} // namespace rt
} // namespace cusim
