// The profiler: what decides a kernel's speed on a GPU, counted from the addresses it touches.
//
// It is the memory checker's second consumer (instrument.cpp): every load and store of a .cu
// file reaches check(), which calls profile_access() when profiling is on (CUSIM_PROFILE=1, or a
// program built by `nvcc-sim --profile`). The caller's return address is the access site.
//
// A GPU issues one request per warp and instruction; the simulator runs a block's threads one
// after another. The profiler rebuilds the warp's requests: per warp and site, the k-th execution
// of that site by each lane (since the block's last __syncthreads()) belongs to request k. In a
// correct program every lane that takes part in request k executes it before the next barrier,
// so the requests are complete at each __syncthreads() and at the block's end, where they are
// counted with Nsight Compute's definitions:
//   * global memory: a request touches 32-byte sectors; sectors per request against the ideal,
//     the fewest sectors that could hold the distinct bytes the active lanes asked for;
//   * shared memory: 32 banks of 4 bytes; a request takes as many wavefronts as the most distinct
//     words any one bank must deliver (lanes reading the same word share it: a broadcast is
//     free), at least one per 128 distinct bytes; bank conflicts are the wavefronts past that;
//   * active lanes per request, atomics (per lane), __syncthreads() per block;
//   * branches: each condition of device code (the rewriter wraps it in dev::br, which calls
//     note_branch when profiling is on) is a request of its own, once per warp; divergent when
//     its active lanes did not all go the same way (Nsight Compute's divergent branches);
//   * theoretical occupancy from the launch and an H100's limits (registers per thread from nvcc
//     where the caller passed them in CUSIM_PROFILE_REGS, else assumed, and the report says so).
#include "internal.hpp"

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
#include <unistd.h>
#include <unordered_map>
#include <vector>

#include "cusim_profile.h"

namespace cusim {
namespace rt {

bool prof_on = false;

namespace {

// Kinds of access, by memory space and direction.
// branch_op: a condition of device code (an if, a loop's test), one request per warp and
// execution; its units count the divergent ones (active lanes that did not all go one way).
enum kind : uint8_t { global_ld, global_st, shared_ld, shared_st, atomic_op, branch_op, n_kinds };

struct site_stats {
  uint64_t requests = 0, lanes = 0;
  uint64_t units = 0, ideal = 0; // sectors (global) or wavefronts (shared), and their ideal
  void add(const site_stats &o) {
    requests += o.requests;
    lanes += o.lanes;
    units += o.units;
    ideal += o.ideal;
  }
};

// A warp request being assembled: which lanes took part and where each went.
struct request {
  uint32_t mask = 0;
  uint8_t size[32];
  uintptr_t addr[32];
};
struct open_site {
  const void *pc;
  uint8_t kind;
  uint32_t count[32]; // per lane: executions since the last flush
  std::vector<request> reqs;
  // A branch site's requests, 8 bytes each: the active lanes (low half) and those that took the
  // branch (high half). A loop's test is executed as often as its body's accesses, so they are
  // kept small, and apart from the limit on open memory requests.
  std::vector<uint64_t> branches;
};
struct warp_sites {
  std::vector<open_site> sites;
  size_t last = 0;
};

uint64_t site_key(const void *pc, uint8_t k) {
  return (uint64_t)(uintptr_t)pc << 3 | k;
}

// What one worker counted for the running launch.
struct worker_prof {
  std::vector<warp_sites> warps;
  uint64_t open = 0;      // requests held in warps
  uint64_t open_br = 0;   // branch requests held in warps
  unsigned bar_seen = 0;  // the block's barrier count when the requests were opened
  unsigned bar_start = 0; // its barrier count when the block started
  bool in_block = false;
  uint64_t barriers = 0;
  std::unordered_map<uint64_t, site_stats> sites;
};
thread_local worker_prof wp;

struct launch_record {
  std::string name, file;
  int line = 0;
  dim3 grid, block;
  size_t dyn_shared = 0, static_shared = 0;
  uint64_t barriers = 0;
  std::unordered_map<uint64_t, site_stats> sites;
  // A small launch (up to 4 blocks, 256 threads), the kernel's first: every global access, for
  // the picture of which thread touched which element.
  struct touch {
    uint64_t site;
    uint32_t thread; // in the grid: block (linear) * threads per block + thread in the block
    uint8_t size;
    uintptr_t addr;
  };
  bool pictured = false;
  std::vector<touch> touches;
};

bool requested = false;
bool warned = false;
std::atomic<bool> recording{false}; // the running launch is pictured
std::mutex touch_mu;
std::mutex mu;
// Every profiled launch, in order (never destroyed: the report runs at exit, after destructors).
std::deque<launch_record> &launches = *new std::deque<launch_record>;
size_t window_start = 0; // cusim_profile_begin(): the first launch of the window
launch_record *running = nullptr;

// ---- counting a complete request ----------------------------------------------------------------
void count_request(const request &r, uint8_t k, site_stats &s) {
  s.requests++;
  s.lanes += (uint64_t)__builtin_popcount(r.mask);
  if (k == atomic_op) return;
  // The distinct bytes asked for: lanes' ranges, sorted and merged.
  std::pair<uintptr_t, uintptr_t> iv[32];
  int n = 0;
  for (uint32_t m = r.mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    iv[n++] = {r.addr[l], r.addr[l] + r.size[l]};
  }
  std::sort(iv, iv + n);
  uint64_t bytes = 0;
  uintptr_t lo = iv[0].first, hi = iv[0].second;
  for (int i = 1; i < n; ++i) {
    if (iv[i].first > hi) {
      bytes += hi - lo;
      lo = iv[i].first;
    }
    hi = std::max(hi, iv[i].second);
  }
  bytes += hi - lo;
  if (k == global_ld || k == global_st) {
    uintptr_t sec[64];
    int ns = 0;
    for (int i = 0; i < n; ++i)
      for (uintptr_t x = iv[i].first >> 5; x <= (iv[i].second - 1) >> 5 && ns < 64; ++x)
        sec[ns++] = x;
    std::sort(sec, sec + ns);
    s.units += (uint64_t)(std::unique(sec, sec + ns) - sec);
    s.ideal += (bytes + 31) / 32;
  } else {
    uintptr_t word[128];
    int nw = 0;
    for (int i = 0; i < n; ++i)
      for (uintptr_t x = iv[i].first >> 2; x <= (iv[i].second - 1) >> 2 && nw < 128; ++x)
        word[nw++] = x;
    std::sort(word, word + nw);
    nw = (int)(std::unique(word, word + nw) - word);
    unsigned per_bank[32] = {0};
    unsigned most = 0;
    for (int i = 0; i < nw; ++i) most = std::max(most, ++per_bank[word[i] & 31]);
    uint64_t ideal = std::max<uint64_t>(1, (bytes + 127) / 128);
    s.units += std::max<uint64_t>(most, ideal);
    s.ideal += ideal;
  }
}

// Counts every open request of the worker's block (all their lanes have executed them).
// A branch site's open requests: once per warp, divergent when the active lanes split.
void count_branches(open_site &o, site_stats &s) {
  for (uint64_t b : o.branches) {
    uint32_t mask = (uint32_t)b, taken = (uint32_t)(b >> 32);
    if (!mask) continue;
    s.requests++;
    s.lanes += (uint64_t)__builtin_popcount(mask);
    if (taken && taken != mask) s.units++;
  }
  o.branches.clear();
  std::memset(o.count, 0, sizeof o.count);
}

void flush_requests(worker_prof &w) {
  for (warp_sites &ws : w.warps) {
    for (open_site &o : ws.sites) {
      if (!o.branches.empty()) count_branches(o, w.sites[site_key(o.pc, o.kind)]);
      if (o.reqs.empty()) continue;
      site_stats &s = w.sites[site_key(o.pc, o.kind)];
      for (const request &r : o.reqs)
        if (r.mask) count_request(r, o.kind, s);
      o.reqs.clear();
      std::memset(o.count, 0, sizeof o.count);
    }
  }
  w.open = 0;
  w.open_br = 0;
}

// Too many open requests (a long loop without a barrier): the warps other than the running one
// are counted now. They have finished unless parked at a warp function, which long loops without
// barriers rarely are.
__attribute__((noinline)) void flush_other_warps(worker_prof &w, unsigned running_warp) {
  for (size_t wi = 0; wi < w.warps.size(); ++wi) {
    if (wi == running_warp) continue;
    for (open_site &o : w.warps[wi].sites) {
      if (!o.branches.empty()) {
        w.open_br -= o.branches.size();
        count_branches(o, w.sites[site_key(o.pc, o.kind)]);
      }
      if (o.reqs.empty()) continue;
      site_stats &s = w.sites[site_key(o.pc, o.kind)];
      for (const request &r : o.reqs)
        if (r.mask) count_request(r, o.kind, s);
      w.open -= o.reqs.size();
      o.reqs.clear();
      std::memset(o.count, 0, sizeof o.count);
    }
  }
  // One warp alone: count what it did so far.
  if (w.open > (1u << 18) || w.open_br > (1u << 22)) flush_requests(w);
}

void end_block(worker_prof &w) {
  if (!w.in_block) return;
  flush_requests(w);
  if (itls.bar_gen) w.barriers += *itls.bar_gen - w.bar_start;
  w.in_block = false;
}

// ---- occupancy (an H100, compute capability 9.0) ------------------------------------------------
struct occupancy {
  int blocks = 0, warps = 0; // resident per multiprocessor
  const char *limit = "";
};
occupancy theoretical(unsigned threads, size_t shared, int regs) {
  const int max_warps = 64, max_blocks = 32, regs_per_sm = 65536;
  const size_t shared_per_sm = 228 * 1024, shared_per_block_reserved = 1024;
  int warps = (int)((threads + 31) / 32);
  occupancy o;
  int by_warps = max_warps / warps;
  int per_warp = (regs * 32 + 255) / 256 * 256; // registers are allocated per warp, by 256
  int by_regs = per_warp ? (regs_per_sm / per_warp) / warps : max_blocks;
  size_t per_block = (shared + 127) / 128 * 128 + shared_per_block_reserved;
  int by_shared = (int)(shared_per_sm / per_block);
  o.blocks = max_blocks;
  o.limit = "blocks per SM";
  if (by_warps < o.blocks) o.blocks = by_warps, o.limit = "threads per SM";
  if (by_regs < o.blocks) o.blocks = by_regs, o.limit = "registers";
  if (by_shared < o.blocks) o.blocks = by_shared, o.limit = "shared memory";
  o.warps = o.blocks * warps;
  return o;
}

// Registers per thread of a kernel: CUSIM_PROFILE_REGS is "name=N,name=N" (from nvcc
// --resource-usage) or one number for all; source says where the figure came from.
int registers_of(const std::string &kernel, bool *from_env) {
  *from_env = false;
  const char *e = std::getenv("CUSIM_PROFILE_REGS");
  if (!e || !*e) return 32;
  std::string base = kernel.substr(0, kernel.find('<'));
  size_t colon = base.rfind("::");
  if (colon != std::string::npos) base = base.substr(colon + 2);
  std::string list = e;
  size_t pos = 0;
  int all = -1;
  while (pos <= list.size()) {
    size_t comma = list.find(',', pos);
    std::string item =
        list.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    size_t eq = item.find('=');
    if (eq == std::string::npos) {
      if (!item.empty()) all = std::atoi(item.c_str());
    } else if (item.substr(0, eq) == base) {
      *from_env = true;
      return std::atoi(item.c_str() + eq + 1);
    }
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  if (all > 0) {
    *from_env = true;
    return all;
  }
  return 32;
}

// ---- source lines -------------------------------------------------------------------------------
// file:line of each code address (one addr2line per program file, at report time).
std::map<const void *, std::string> source_lines(const std::vector<const void *> &pcs) {
  std::map<const void *, std::string> out;
  std::map<std::string, std::vector<std::pair<const void *, uintptr_t>>> by_file;
  for (const void *pc : pcs) {
    Dl_info info;
    if (!pc || !dladdr(pc, &info) || !info.dli_fname) continue;
    by_file[info.dli_fname].push_back({pc, (uintptr_t)pc - 1 - (uintptr_t)info.dli_fbase});
  }
  // -i: the chain of inlined calls, innermost first; the first frame outside the simulator's own
  // headers is the program's line (a kernel is inlined into the scheduler's thread loop).
  for (auto &f : by_file) {
    std::string cmd = "addr2line -a -i -e '" + f.first + "'";
    for (auto &p : f.second) {
      char hex[32];
      std::snprintf(hex, sizeof hex, " 0x%" PRIxPTR, p.second);
      cmd += hex;
    }
    cmd += " 2>/dev/null";
    FILE *pipe = popen(cmd.c_str(), "r");
    if (!pipe) continue;
    std::map<uintptr_t, const void *> by_offset;
    for (auto &p : f.second) by_offset[p.second] = p.first;
    char buf[1024];
    const void *pc = nullptr;
    bool chosen = false;
    while (std::fgets(buf, sizeof buf, pipe)) {
      std::string s = buf;
      while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
      if (s.compare(0, 2, "0x") == 0) { // the next address
        auto it = by_offset.find((uintptr_t)std::strtoull(s.c_str(), nullptr, 16));
        pc = it == by_offset.end() ? nullptr : it->second;
        chosen = false;
        continue;
      }
      if (!pc || chosen || s.empty() || s[0] == '?') continue;
      if (s.find("/sim/include/") != std::string::npos) continue;
      size_t d = s.find(" (discriminator");
      if (d != std::string::npos) s.resize(d);
      size_t slash = s.rfind('/');
      if (slash != std::string::npos) s = s.substr(slash + 1);
      out[pc] = s;
      chosen = true;
    }
    pclose(pipe);
  }
  return out;
}

// ---- the report ---------------------------------------------------------------------------------
const char *kind_title[n_kinds] = {"global loads", "global stores", "shared loads", "shared stores",
                                   "atomics"};
const char *kind_short[n_kinds] = {"loads", "stores", "shared loads", "shared stores", "atomics"};

std::string verdict(uint8_t k, double per, double ideal) {
  char buf[64];
  if (k == global_ld || k == global_st) {
    if (per <= ideal + 1e-9) return "coalesced";
    return per <= 2 * ideal ? "partly coalesced" : "uncoalesced";
  }
  if (per <= ideal + 1e-9) return "no bank conflicts";
  std::snprintf(buf, sizeof buf, "%.0f-way bank conflicts", per / ideal);
  return buf;
}

// ---- the picture of a small launch --------------------------------------------------------------
__attribute__((noinline)) void record_touch(uint64_t site, uintptr_t a, unsigned size) {
  uint3 b = cusim_tls.block_idx, g = cusim_tls.grid_dim;
  uint64_t block = b.x + (uint64_t)g.x * (b.y + (uint64_t)g.y * b.z);
  std::lock_guard<std::mutex> lock(touch_mu);
  if (running == nullptr || running->touches.size() >= 65536) return;
  running->touches.push_back(
      {site, (uint32_t)(block * itls.nthreads + cusim_tls.tid), (uint8_t)std::min(size, 255u), a});
}

bool picture_wanted() {
  const char *e = std::getenv("CUSIM_PROFILE_PICTURE");
  return !(e && std::strcmp(e, "0") == 0);
}

bool colour_wanted() {
  const char *c = std::getenv("CUSIM_PROFILE_COLOR");
  if (c && *c) return std::strcmp(c, "0") != 0;
  const char *no = std::getenv("NO_COLOR");
  return !(no && *no) && isatty(2);
}

// What a picture shows: the elements one site touched, and which thread touched each.
struct layout {
  std::vector<const launch_record::touch *> ts;
  unsigned nthreads = 0, warps_per_block = 0, elem = 1;
  uintptr_t base = 0;
  size_t row_bytes = 128;
  std::map<uintptr_t, int64_t> owner; // element offset -> thread (-1: several)
  std::set<uintptr_t> rows;
  unsigned warp_of(uint32_t thread) const {
    return thread / nthreads * warps_per_block + thread % nthreads / 32;
  }
};
bool lay_out(const launch_record &l, uint64_t site, layout &g) {
  for (const auto &t : l.touches)
    if (t.site == site) g.ts.push_back(&t);
  if (g.ts.empty()) return false;
  g.nthreads = l.block.x * l.block.y * l.block.z;
  g.warps_per_block = (g.nthreads + 31) / 32;
  for (auto *t : g.ts) g.elem = std::max(g.elem, (unsigned)t->size);
  if (g.elem > 32 || 32 % g.elem) return false; // (odd sizes: no picture)
  lookup at = find((const void *)g.ts[0]->addr);
  g.base = at.live ? at.base : g.ts[0]->addr / 128 * 128;
  for (auto *t : g.ts) g.base = std::min(g.base, t->addr / g.elem * g.elem);
  g.row_bytes = 128 / g.elem <= 64 ? 128 : 64;
  for (auto *t : g.ts) {
    uintptr_t cell = (t->addr - g.base) / g.elem;
    auto it = g.owner.find(cell);
    if (it == g.owner.end())
      g.owner[cell] = t->thread;
    else if (it->second != (int64_t)t->thread)
      it->second = -1;
  }
  for (auto &c : g.owner) g.rows.insert(c.first * g.elem / g.row_bytes);
  return true;
}

// The same picture as an SVG file (CUSIM_PROFILE_SVG=FOLDER): every row, a cell per element with
// the lane's number, filled with its warp's colour.
void write_svg(const std::string &path, const launch_record &l, const layout &g,
               const std::string &what) {
  FILE *f = std::fopen(path.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "cusim: warning: cannot write %s\n", path.c_str());
    return;
  }
  static const char *fill[8] = {"#e6194b", "#3cb44b", "#4363d8", "#911eb4",
                                "#f58231", "#42d4f4", "#f032e6", "#9a6324"};
  const int cell = 18, left = 80, top = 50;
  size_t cells = g.row_bytes / g.elem;
  int width = std::max(760, left + (int)cells * cell + 20),
      height = top + (int)g.rows.size() * (cell + 4) + 20;
  std::fprintf(f,
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "font-family=\"monospace\" font-size=\"11\">\n",
               width, height);
  std::string title = "kernel '" + l.name + "': " + what;
  for (char &c : title)
    if (c == '<' || c == '>' || c == '&') c = '?';
  std::fprintf(f, "<text x=\"4\" y=\"16\">%s</text>\n", title.c_str());
  std::fprintf(f,
               "<text x=\"4\" y=\"32\">each cell: a %u-byte element, the lane of the thread "
               "that touched it, coloured by warp; lines: 32-byte sectors</text>\n",
               g.elem);
  int y = top;
  for (uintptr_t r : g.rows) {
    std::fprintf(f, "<text x=\"4\" y=\"%d\">+%lu</text>\n", y + 13,
                 (unsigned long)(r * g.row_bytes));
    for (size_t c = 0; c < cells; ++c) {
      int x = left + (int)c * cell;
      auto it = g.owner.find(r * cells + c);
      const char *colour = "#ffffff";
      std::string mark;
      if (it != g.owner.end() && it->second < 0) {
        colour = "#808080";
        mark = "*";
      } else if (it != g.owner.end()) {
        colour = fill[g.warp_of((uint32_t)it->second) % 8];
        mark = std::to_string((uint32_t)it->second % g.nthreads % 32);
      }
      std::fprintf(f,
                   "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" "
                   "stroke=\"#c0c0c0\"/>\n",
                   x, y, cell, cell, colour);
      if (!mark.empty())
        std::fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#ffffff\">%s</text>\n", x + 2, y + 13,
                     mark.c_str());
      if (c % (32 / g.elem) == 0)
        std::fprintf(f,
                     "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000000\" "
                     "stroke-width=\"2\"/>\n",
                     x, y - 1, x, y + cell + 1);
    }
    int x_end = left + (int)cells * cell;
    std::fprintf(f,
                 "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000000\" "
                 "stroke-width=\"2\"/>\n",
                 x_end, y - 1, x_end, y + cell + 1);
    y += cell + 4;
  }
  std::fprintf(f, "</svg>\n");
  std::fclose(f);
}

// Which thread touched which element of the memory one site accessed, one row per 128 bytes (a
// warp's floats), with the sectors of each warp's first request there.
void print_picture(FILE *o, const launch_record &l, uint64_t site, const std::string &what) {
  layout g;
  if (!lay_out(l, site, g)) return;
  const auto &ts = g.ts;
  unsigned nthreads = g.nthreads, warps_per_block = g.warps_per_block, elem = g.elem;
  uintptr_t base = g.base;
  size_t row_bytes = g.row_bytes;
  const std::map<uintptr_t, int64_t> &owner = g.owner;
  bool colour = colour_wanted();
  static const char *warp_colour[8] = {"\033[31m", "\033[32m", "\033[34m", "\033[35m",
                                       "\033[33m", "\033[36m", "\033[91m", "\033[94m"};
  std::fprintf(o, "  picture of %s (launch of %u x %u threads):\n", what.c_str(),
               l.grid.x * l.grid.y * l.grid.z, nthreads);
  if (colour)
    std::fprintf(o,
                 "    a mark per %u-byte element: the lane (0-9, a-v) of the thread\n"
                 "    that touched it, coloured by warp; * several threads; | 32-byte\n"
                 "    sectors (numbered below from the start of the array)\n",
                 elem);
  else
    std::fprintf(o,
                 "    a mark per %u-byte element: the warp (0-7) of the thread that\n"
                 "    touched it; * several threads; | 32-byte sectors (numbered\n"
                 "    below from the start of the array)\n",
                 elem);
  const std::set<uintptr_t> &rows = g.rows;
  int shown = 0;
  uintptr_t last = 0;
  for (uintptr_t r : rows) {
    if (shown == 12) {
      std::fprintf(o, "    ... and %zu more rows\n", rows.size() - 12);
      break;
    }
    if (shown && r != last + 1) std::fprintf(o, "    ...\n");
    last = r;
    ++shown;
    std::string line;
    char label[32];
    std::snprintf(label, sizeof label, "  %+8ld ", (long)(r * row_bytes));
    line += label;
    int64_t only = -2; // the one warp of the row, if one
    for (size_t b = 0; b < row_bytes; b += elem) {
      if (b % 32 == 0) line += '|';
      auto it = owner.find((r * row_bytes + b) / elem);
      if (it == owner.end()) {
        line += '.';
        continue;
      }
      if (it->second < 0) {
        line += '*';
        only = -3;
        continue;
      }
      uint32_t th = (uint32_t)it->second, blk = th / nthreads, t = th % nthreads;
      unsigned warp = blk * warps_per_block + t / 32, lane = t % 32;
      if (only == -2) only = warp;
      if (only >= 0 && (unsigned)only != warp) only = -3;
      if (colour) {
        line += warp_colour[warp % 8];
        line += "0123456789abcdefghijklmnopqrstuv"[lane];
        line += "\033[0m";
      } else {
        line += (char)('0' + warp % 10);
      }
    }
    line += '|';
    if (only >= 0) line += " warp " + std::to_string(only);
    std::fprintf(o, "%s\n", line.c_str());
  }
  // Each warp's first request at this site: the sectors it touched.
  std::map<unsigned, std::set<uintptr_t>> sectors;
  std::map<unsigned, uint64_t> bytes;
  std::map<uint32_t, int> seen; // thread -> executions of the site so far
  for (auto *t : ts) {
    if (seen[t->thread]++ != 0) continue;
    uint32_t blk = t->thread / nthreads, th = t->thread % nthreads;
    unsigned warp = blk * warps_per_block + th / 32;
    for (uintptr_t x = (t->addr - base) / 32; x <= (t->addr + t->size - 1 - base) / 32; ++x)
      sectors[warp].insert(x);
    bytes[warp] += t->size;
  }
  int lines = 0;
  for (auto &w : sectors) {
    if (lines++ == 8) {
      std::fprintf(o, "    ... and %zu more warps\n", sectors.size() - 8);
      break;
    }
    std::string list;
    uintptr_t prev = 0, start = 0;
    bool open = false;
    auto close = [&] {
      if (!open) return;
      char buf[48];
      if (start == prev)
        std::snprintf(buf, sizeof buf, "%s%lu", list.empty() ? "" : ",", (unsigned long)start);
      else
        std::snprintf(buf, sizeof buf, "%s%lu-%lu", list.empty() ? "" : ",", (unsigned long)start,
                      (unsigned long)prev);
      list += buf;
    };
    for (uintptr_t x : w.second) {
      if (!open || x != prev + 1) {
        close();
        start = x;
        open = true;
      }
      prev = x;
    }
    close();
    if (list.size() > 36) list = list.substr(0, 33) + "...";
    std::fprintf(o, "    warp %u's first request: %zu sector%s (%s)\n", w.first, w.second.size(),
                 w.second.size() == 1 ? "" : "s", list.c_str());
  }
  if (const char *dir = std::getenv("CUSIM_PROFILE_SVG")) {
    if (*dir) {
      static int count = 0;
      std::string path = std::string(dir) + "/" + l.name.substr(0, l.name.find('<')) + "-" +
                         std::to_string(++count) + ".svg";
      write_svg(path, l, g, what);
      std::fprintf(o, "  (also drawn in %.60s)\n", path.c_str());
    }
  }
}

// Branch efficiency, (branches - divergent) / branches: whole percents, but never 100% while a
// branch diverged (99.9% then), nor 0% while one did not.
std::string efficiency(uint64_t branches, uint64_t divergent) {
  double e = 100.0 * (double)(branches - divergent) / (double)branches;
  char buf[16];
  if (divergent && e > 99.5)
    std::snprintf(buf, sizeof buf, "%.1f%%", std::min(e, 99.9));
  else if (divergent < branches && e < 0.5)
    std::snprintf(buf, sizeof buf, "%.1f%%", std::max(e, 0.1));
  else
    std::snprintf(buf, sizeof buf, "%.0f%%", e);
  return buf;
}

void print_report() {
  std::lock_guard<std::mutex> lock(mu);
  std::fflush(stdout);
  FILE *o = stderr;
  if (!prof_on) {
    if (requested)
      std::fprintf(o, "cusim profile: no kernel ran with the counters on (they need the memory\n"
                      "  checker's instrumentation: a sim build, CUSIM_MEMCHECK not 0)\n");
    return;
  }
  // Kernels in the order of their first launch, each with its launches' counts summed.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const launch_record *>> by_name;
  std::vector<const void *> pcs;
  for (const launch_record &l : launches) {
    if (!by_name.count(l.name)) order.push_back(l.name);
    by_name[l.name].push_back(&l);
    for (auto &s : l.sites)
      if ((s.first & 7) != branch_op) pcs.push_back((const void *)(uintptr_t)(s.first >> 3));
  }
  std::sort(pcs.begin(), pcs.end());
  pcs.erase(std::unique(pcs.begin(), pcs.end()), pcs.end());
  std::map<const void *, std::string> where = source_lines(pcs);
  // A branch site is the rewriter's record of its file and line.
  for (const launch_record &l : launches)
    for (auto &s : l.sites) {
      if ((s.first & 7) != branch_op) continue;
      auto *b = (const dev::branch_site *)(uintptr_t)(s.first >> 3);
      std::string f = b->file ? b->file : "?";
      size_t sl = f.rfind('/');
      if (sl != std::string::npos) f = f.substr(sl + 1);
      where[b] = f + ":" + std::to_string(b->line);
    }
  std::fprintf(o, "\ncusim profile: counts as an NVIDIA H100 would see them (Nsight Compute's\n"
                  "definitions); times on the simulator say nothing about a GPU\n");
  if (order.empty()) std::fprintf(o, "  no kernel was launched\n");
  for (const std::string &name : order) {
    const std::vector<const launch_record *> &ls = by_name[name];
    const launch_record &last = *ls.back();
    std::map<uint64_t, site_stats> sites;
    site_stats tot[n_kinds];
    uint64_t barriers = 0, blocks = 0;
    for (const launch_record *l : ls) {
      for (auto &s : l->sites) {
        sites[s.first].add(s.second);
        tot[s.first & 7].add(s.second);
      }
      barriers += l->barriers;
      blocks += (uint64_t)l->grid.x * l->grid.y * l->grid.z;
    }
    std::string at = last.file;
    size_t slash = at.rfind('/');
    if (slash != std::string::npos) at = at.substr(slash + 1);
    char head[160], tail[160];
    std::snprintf(head, sizeof head, "kernel '%.60s'", name.c_str());
    std::snprintf(tail, sizeof tail, "(launched at %.60s:%d), %zu launch%s", at.c_str(), last.line,
                  ls.size(), ls.size() == 1 ? "" : "es");
    if (std::strlen(head) + 1 + std::strlen(tail) <= 80)
      std::fprintf(o, "\n%s %s\n", head, tail);
    else
      std::fprintf(o, "\n%s\n  %s\n", head, tail);
    unsigned threads = last.block.x * last.block.y * last.block.z;
    bool from_env = false;
    int regs = registers_of(name, &from_env);
    occupancy occ = theoretical(threads, last.static_shared + last.dyn_shared, regs);
    std::fprintf(o, "  last launch: %u x %u x %u blocks of %u x %u x %u threads\n", last.grid.x,
                 last.grid.y, last.grid.z, last.block.x, last.block.y, last.block.z);
    std::fprintf(o, "  occupancy: %.0f%% (%d warps of 64 per SM; limited by %s)\n",
                 100.0 * occ.warps / 64, occ.warps, occ.limit);
    const char *src = std::getenv("CUSIM_PROFILE_REGS_SOURCE");
    if (from_env)
      std::fprintf(o, "  registers: %d per thread (%.40s)\n", regs,
                   src && *src ? src : "from CUSIM_PROFILE_REGS");
    else
      std::fprintf(o,
                   "  registers: %d per thread, assumed (no nvcc figure: set\n"
                   "    CUSIM_PROFILE_REGS, or run ./workbook profile with nvcc installed)\n",
                   regs);
    std::fprintf(o, "  shared memory: %zu bytes per block\n", last.static_shared + last.dyn_shared);
    for (int k = 0; k < atomic_op; ++k) {
      const site_stats &t = tot[k];
      if (!t.requests) continue;
      double per = (double)t.units / (double)t.requests;
      double ideal = (double)t.ideal / (double)t.requests;
      bool global = k == global_ld || k == global_st;
      std::fprintf(o, "  %-13s %10" PRIu64 " requests, %5.1f %s/request, ideal %.1f (%.0f%%)\n",
                   kind_title[k], t.requests, per, global ? "sectors" : "wavefronts", ideal,
                   100.0 * (double)t.ideal / (double)t.units);
      if (!global && t.units > t.ideal)
        std::fprintf(o, "  %-13s %10" PRIu64 " bank conflicts\n", "", t.units - t.ideal);
    }
    uint64_t reqs = 0, lanes = 0;
    for (int k = 0; k <= atomic_op; ++k) reqs += tot[k].requests, lanes += tot[k].lanes;
    if (reqs)
      std::fprintf(o, "  active lanes: %.1f of 32 per request (%.0f%%)\n",
                   (double)lanes / (double)reqs, 100.0 * (double)lanes / (double)reqs / 32);
    std::fprintf(o, "  atomics: %" PRIu64 "; __syncthreads(): %.1f per block\n",
                 tot[atomic_op].lanes, blocks ? (double)barriers / (double)blocks : 0.0);
    // Branches as Nsight Compute counts them: once per warp that executes one; divergent when
    // the warp's active lanes do not all take the same way.
    const site_stats &br = tot[branch_op];
    if (br.requests)
      std::fprintf(o, "  branches: %" PRIu64 ", %" PRIu64 " divergent; branch efficiency %s\n",
                   br.requests, br.units, efficiency(br.requests, br.units).c_str());
    // The lines to look at: most wasted sectors or wavefronts first, then most requests.
    std::vector<std::pair<uint64_t, site_stats>> top(sites.begin(), sites.end());
    std::stable_sort(top.begin(), top.end(), [](const auto &a, const auto &b) {
      uint64_t wa = a.second.units - a.second.ideal, wb = b.second.units - b.second.ideal;
      if (wa != wb) return wa > wb;
      return a.second.requests > b.second.requests;
    });
    int shown = 0;
    for (auto &s : top) {
      uint8_t k = (uint8_t)(s.first & 7);
      if (k >= atomic_op || shown == 4) continue;
      if (shown++ == 0) std::fprintf(o, "  top lines:\n");
      auto w = where.find((const void *)(uintptr_t)(s.first >> 3));
      std::string line = w == where.end() ? "an unknown line" : w->second;
      double per = (double)s.second.units / (double)s.second.requests;
      double ideal = (double)s.second.ideal / (double)s.second.requests;
      bool global = k == global_ld || k == global_st;
      std::string text = std::string(kind_short[k]) + ": ";
      char buf[128];
      std::snprintf(buf, sizeof buf, "%.1f %s/request, ideal %.1f: ", per,
                    global ? "sectors" : "wavefronts", ideal);
      text += buf + verdict(k, per, ideal) + ",";
      std::string tail = "at " + line;
      double lanes_per = (double)s.second.lanes / (double)s.second.requests;
      if (lanes_per < 31.95) { // fewer active lanes than a warp: divergence or a partial warp
        std::snprintf(buf, sizeof buf, "%.1f lanes,", lanes_per);
        if (4 + text.size() + 1 + std::strlen(buf) <= 80)
          text += std::string(" ") + buf;
        else
          tail = buf + (" " + tail); // (the text alone fills the line)
      }
      if (4 + text.size() + 1 + tail.size() <= 80)
        std::fprintf(o, "    %s %s\n", text.c_str(), tail.c_str());
      else
        std::fprintf(o, "    %s\n      %.72s\n", text.c_str(), tail.c_str());
    }
    // The divergent branches, most first.
    std::vector<std::pair<uint64_t, site_stats>> divergent;
    for (auto &s : sites)
      if ((s.first & 7) == branch_op && s.second.units) divergent.push_back(s);
    std::stable_sort(divergent.begin(), divergent.end(),
                     [](const auto &a, const auto &b) { return a.second.units > b.second.units; });
    for (size_t i = 0; i < divergent.size() && i < 4; ++i) {
      if (i == 0) std::fprintf(o, "  divergent branches:\n");
      const site_stats &t = divergent[i].second;
      auto w = where.find((const void *)(uintptr_t)(divergent[i].first >> 3));
      char buf[128];
      std::snprintf(buf, sizeof buf, "%" PRIu64 " of %" PRIu64 " divergent (efficiency %s),",
                    t.units, t.requests, efficiency(t.requests, t.units).c_str());
      std::string tail = "at " + (w == where.end() ? std::string("an unknown line") : w->second);
      if (4 + std::strlen(buf) + 1 + tail.size() <= 80)
        std::fprintf(o, "    %s %s\n", buf, tail.c_str());
      else
        std::fprintf(o, "    %s\n      %.72s\n", buf, tail.c_str());
    }
    // The picture of the kernel's first small launch: its two top global lines.
    for (const launch_record *l : ls) {
      if (!l->pictured) continue;
      int drawn = 0;
      for (auto &s : top) {
        uint8_t k = (uint8_t)(s.first & 7);
        if (k > global_st || drawn == 2) continue;
        auto w = where.find((const void *)(uintptr_t)(s.first >> 3));
        print_picture(o, *l, s.first,
                      std::string(kind_short[k]) + " at " +
                          (w == where.end() ? std::string("an unknown line") : w->second));
        ++drawn;
      }
      break;
    }
  }
  std::fflush(o);
}

void totals(const std::vector<const launch_record *> &ls, cusim_profile_counts *c) {
  std::memset(c, 0, sizeof *c);
  for (const launch_record *l : ls) {
    c->launches++;
    c->blocks += (uint64_t)l->grid.x * l->grid.y * l->grid.z;
    c->barriers += l->barriers;
    for (auto &s : l->sites) {
      const site_stats &t = s.second;
      switch (s.first & 7) {
      case global_ld:
        c->global_load_requests += t.requests;
        c->global_load_sectors += t.units;
        c->global_load_ideal_sectors += t.ideal;
        break;
      case global_st:
        c->global_store_requests += t.requests;
        c->global_store_sectors += t.units;
        c->global_store_ideal_sectors += t.ideal;
        break;
      case shared_ld:
        c->shared_load_requests += t.requests;
        c->shared_load_wavefronts += t.units;
        c->shared_load_ideal_wavefronts += t.ideal;
        break;
      case shared_st:
        c->shared_store_requests += t.requests;
        c->shared_store_wavefronts += t.units;
        c->shared_store_ideal_wavefronts += t.ideal;
        break;
      case atomic_op:
        c->atomics += t.lanes;
        break;
      case branch_op:
        c->branches += t.requests;
        c->divergent_branches += t.units;
        continue; // not a memory request
      }
      c->requests += t.requests;
      c->active_lanes += t.lanes;
    }
  }
  c->bank_conflicts = c->shared_load_wavefronts - c->shared_load_ideal_wavefronts +
                      c->shared_store_wavefronts - c->shared_store_ideal_wavefronts;
  if (!ls.empty()) {
    const launch_record &l = *ls.back();
    bool from_env;
    int regs = registers_of(l.name, &from_env);
    occupancy occ =
        theoretical(l.block.x * l.block.y * l.block.z, l.static_shared + l.dyn_shared, regs);
    c->registers = regs;
    c->registers_known = from_env ? 1 : 0;
    c->occupancy = (double)occ.warps / 64.0;
  }
}

__attribute__((constructor)) void read_environment() {
  const char *e = std::getenv("CUSIM_PROFILE");
  if (e && *e && std::strcmp(e, "0") != 0) cusim_profile_enable();
}

} // namespace

// ---- the scheduler's side -----------------------------------------------------------------------
namespace {
void note(uintptr_t a, unsigned size, const void *pc, uint8_t k);
}
void profile_access(uintptr_t a, unsigned size, bool write, const void *pc, bool atomic,
                    bool shared) {
  if (__builtin_expect(!wp.in_block, 0)) return;
  note(a, size, pc,
       atomic ? (uint8_t)atomic_op : (uint8_t)((shared ? shared_ld : global_ld) + (write ? 1 : 0)));
}

namespace {
// One lane's execution of a site: into the warp's request for it (see the file's head).
void note(uintptr_t a, unsigned size, const void *pc, uint8_t k) {
  worker_prof &w = wp;
  if (__builtin_expect(*itls.bar_gen != w.bar_seen, 0)) { // a __syncthreads() completed
    flush_requests(w);
    w.bar_seen = *itls.bar_gen;
  }
  unsigned tid = cusim_tls.tid, warp = tid >> 5, lane = tid & 31;
  if (__builtin_expect(warp >= w.warps.size(), 0)) w.warps.resize(warp + 1);
  warp_sites &ws = w.warps[warp];
  open_site *o = nullptr;
  if (ws.last < ws.sites.size() && ws.sites[ws.last].pc == pc && ws.sites[ws.last].kind == k) {
    o = &ws.sites[ws.last];
  } else {
    for (size_t i = 0; i < ws.sites.size(); ++i)
      if (ws.sites[i].pc == pc && ws.sites[i].kind == k) {
        o = &ws.sites[i];
        ws.last = i;
        break;
      }
    if (!o) {
      ws.sites.push_back(open_site{pc, k, {0}, {}, {}});
      ws.last = ws.sites.size() - 1;
      o = &ws.sites.back();
    }
  }
  uint32_t n = o->count[lane]++;
  if (k == branch_op) {
    if (n >= o->branches.size()) {
      o->branches.resize(n + 1);
      if (++w.open_br > (1u << 22)) {
        flush_other_warps(w, warp);
        n = o->count[lane]++;
        if (n >= o->branches.size()) o->branches.resize(n + 1), ++w.open_br;
      }
    }
    o->branches[n] |= (1ull << lane) | ((uint64_t)(a != 0) << (32 + lane));
    return;
  }
  if (n >= o->reqs.size()) {
    o->reqs.resize(n + 1);
    if (++w.open > (1u << 18)) {
      flush_other_warps(w, warp);
      n = o->count[lane]++;
      if (n >= o->reqs.size()) o->reqs.resize(n + 1), ++w.open;
    }
  }
  if (__builtin_expect(recording.load(std::memory_order_relaxed), 0) && k <= global_st)
    record_touch(site_key(pc, k), a, size);
  request &r = o->reqs[n];
  if (r.mask & (1u << lane)) return; // (a range split in pieces: its first piece stands for it)
  r.mask |= 1u << lane;
  r.addr[lane] = a;
  r.size[lane] = (uint8_t)std::min(size, 255u);
}
} // namespace

void profile_launch_begin(const detail::kernel_base *k) {
  if (!requested) return;
  if (!prof_on) {
    if (!checker_on()) {
      if (!warned)
        std::fprintf(stderr, "cusim: warning: the profiler needs the memory checker's "
                             "instrumentation (CUSIM_MEMCHECK=0 turns both off): nothing is "
                             "counted\n");
      warned = true;
      return;
    }
    prof_on = true;
  }
  std::lock_guard<std::mutex> lock(mu);
  launches.emplace_back();
  running = &launches.back();
  running->name = k->name ? k->name : "?";
  running->file = k->file ? k->file : "?";
  running->line = k->line;
  running->grid = k->grid;
  running->block = k->block_dim;
  running->dyn_shared = k->shared_bytes;
  uint64_t blocks = (uint64_t)k->grid.x * k->grid.y * k->grid.z;
  uint64_t threads = (uint64_t)k->block_dim.x * k->block_dim.y * k->block_dim.z;
  if (blocks <= 4 && blocks * threads <= 256 && picture_wanted()) {
    bool first = true;
    for (const launch_record &l : launches)
      if (&l != running && l.name == running->name && l.pictured) first = false;
    if (first) {
      running->pictured = true;
      recording.store(true);
    }
  }
}

void profile_block_begin() {
  worker_prof &w = wp;
  end_block(w);
  if (!prof_on || !itls.bar_gen) return;
  w.in_block = true;
  w.bar_start = w.bar_seen = *itls.bar_gen;
}

void profile_worker_done(size_t static_shared) {
  worker_prof &w = wp;
  end_block(w);
  if (!prof_on) return;
  std::lock_guard<std::mutex> lock(mu);
  if (running) {
    for (auto &s : w.sites) running->sites[s.first].add(s.second);
    running->barriers += w.barriers;
    running->static_shared = std::max(running->static_shared, static_shared);
  }
  w.sites.clear();
  w.barriers = 0;
  w.warps.clear();
}

void profile_launch_end() {
  std::lock_guard<std::mutex> lock(mu);
  recording.store(false);
  std::lock_guard<std::mutex> lock2(touch_mu);
  running = nullptr;
}

} // namespace rt

// A condition of device code (the rewriter wraps each one in dev::br, cusim_device.h).
void dev::note_branch(const branch_site *site, bool taken) {
  if (!rt::wp.in_block) return; // host code, or a __host__ __device__ function on the host
  rt::note(taken ? 1 : 0, 1, site, rt::branch_op);
}
} // namespace cusim

// ---- the C API (cusim_profile.h) ----------------------------------------------------------------
extern "C" {
int cusim_profile_enable(void) {
  using namespace cusim::rt;
  std::lock_guard<std::mutex> lock(mu);
  if (!requested) {
    requested = true;
    std::atexit(print_report);
  }
  return 1;
}
int cusim_profile_available(void) {
  return cusim::rt::checker_on() ? 1 : 0;
}
void cusim_profile_begin(void) {
  using namespace cusim::rt;
  if (!requested) {
    std::lock_guard<std::mutex> lock(mu);
    requested = true; // counting for the API only: no report at exit
  }
  cudaDeviceSynchronize(); // launches queued before the window are not part of it
  std::lock_guard<std::mutex> lock(mu);
  window_start = launches.size();
}
int cusim_profile_end(const char *kernel, struct cusim_profile_counts *out) {
  using namespace cusim::rt;
  cudaDeviceSynchronize(); // launches queued in the window run now
  std::lock_guard<std::mutex> lock(mu);
  std::vector<const launch_record *> ls;
  for (size_t i = window_start; i < launches.size(); ++i) {
    const std::string &n = launches[i].name;
    if (!kernel || n == kernel ||
        n.compare(0, std::strlen(kernel) + 1, std::string(kernel) + "<") == 0)
      ls.push_back(&launches[i]);
  }
  totals(ls, out);
  return prof_on ? 1 : 0;
}
} // extern "C"
