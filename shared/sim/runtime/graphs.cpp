// CUDA graphs (cusim_graph.h): graphs built node by node or captured from streams, instantiated
// and launched into a stream. A launch queues the graph's nodes on that stream in an order their
// dependencies allow (creation order among independent nodes): kernel nodes through the same path
// as every launch (the memory checker, the stream-race check, the profiler), copies and memsets as
// the asynchronous calls queue them. A correct program cannot tell one such order from another;
// one that can has a race between independent nodes, which this order does not report.
//
// Capture: work queued on a capturing stream (enqueue and the launch path ask graph_takes_op and
// graph_takes_launch) becomes a node depending on the stream's last nodes; an event recorded in a
// capturing stream carries those nodes to the streams that wait for it, which join the capture
// (the fork and join of NVIDIA's samples). What may not be captured is refused with one line.
#include "api_state.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <queue>
#include <string>
#include <thread>

using cusim::detail::kernel_base;

struct CUgraphNode_st {
  cudaGraph_t graph = nullptr;
  cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
  std::vector<cudaGraphNode_t> deps; // the nodes this one comes after
  // kernel: the prepared launch (arguments copied when the node was made), shared with clones
  std::shared_ptr<kernel_base> kernel;
  cudaKernelNodeParams kparams{}; // as given to cudaGraphAddKernelNode (func null when captured)
  cudaMemcpy3DParms copy{};       // explicit memcpy nodes
  cudaMemsetParams set{};         // explicit memset nodes
  // captured copies and memsets: the operation their call queued, with its bytes
  std::function<void()> op;
  std::string what;
  std::vector<cusim::rt::mem_access> accesses;
  cudaHostNodeParams host{};
  cudaGraph_t child = nullptr; // owned: a copy of the graph given
  cudaEvent_t event = nullptr;
  cudaGraphNode_t cloned_from = nullptr;
  // memory nodes: the allocation's reservation (shared with clones), and its parameters
  std::shared_ptr<cusim::rt::graph_block> block;
  cudaMemAllocNodeParams alloc{};
  // conditional nodes: the handle, the kind, and the body graphs (owned)
  cudaGraphConditionalHandle cond = 0;
  cudaGraphConditionalNodeType cond_type = cudaGraphCondTypeIf;
  std::vector<cudaGraph_t> bodies;
};
struct CUgraph_st {
  std::vector<cudaGraphNode_t> nodes; // in creation order
  bool is_body = false;               // a conditional node's body graph, made by cudaGraphAddNode
  ~CUgraph_st();
  void destroy_nodes() {
    for (cudaGraphNode_t n : nodes) {
      delete n->child;
      for (cudaGraph_t b : n->bodies) delete b;
      delete n;
    }
  }
};
struct CUgraphExec_st {
  cudaGraph_t graph = nullptr; // its own copy, fixed at instantiation
  std::vector<cudaGraphNode_t> order;
  std::vector<int> branch; // per node of order: the branch stream it runs on (from 0)
  std::map<cudaGraphNode_t, cudaGraphNode_t> of; // a node of the graph given -> its copy
  unsigned long long flags = 0;
  std::vector<cudaGraphConditionalHandle> handles; // its graph's conditional handles
  bool has_memory_nodes = false;
  ~CUgraphExec_st() { delete graph; }
};

// CUDA frees a program's graphs, nodes and instantiations at exit: under AddressSanitizer they
// are not leaks to report (as the simulator's other handles).
template <class T> T *kept_at_exit(T *p) {
#if defined(CUSIM_ASAN)
  __lsan_ignore_object(p);
#endif
  return p;
}

namespace cusim {
namespace rt {
std::atomic<int> captures_active{0};
thread_local int capturable_depth = 0;
thread_local std::shared_ptr<kernel_base> *kernel_node_slot = nullptr;

namespace {
std::mutex gmu; // guards the graphs' registry and the captures

std::set<cudaGraph_t> graphs;
std::set<cudaGraphExec_t> execs;
std::set<cudaGraph_t> body_graphs; // conditional nodes' bodies (their nodes own them)

struct capture {
  unsigned long long id;
  std::thread::id thread; // the thread that began it
  cudaGraph_t graph;
  cudaStream_t origin;
  cudaStreamCaptureMode mode;
  bool into_existing = false; // cudaStreamBeginCaptureToGraph: the graph is the program's
  bool invalidated = false;
  std::map<cudaStream_t, std::vector<cudaGraphNode_t>> tips; // per stream: its last nodes
};
std::map<cudaStream_t, capture *> capturing; // every stream taking part in a capture
std::map<unsigned long long, capture *> captures_by_id;
bool capture_graph_locked(cudaGraph_t g) {
  for (auto &kv : captures_by_id)
    if (kv.second->graph == g) return true;
  return false;
}
unsigned long long next_capture_id = 1;
struct captured_record {
  unsigned long long capture_id;
  std::vector<cudaGraphNode_t> nodes;
};
std::map<cudaEvent_t, captured_record> captured_events;
thread_local cudaStreamCaptureMode thread_capture_mode = cudaStreamCaptureModeGlobal;
std::vector<cudaGraphEdgeData> zero_edges; // cudaStreamGetCaptureInfo's edge data: all default

// The stream a handle names: nullptr for the legacy default stream.
cudaStream_t key(cudaStream_t s) {
  if (s == nullptr && zero_is_per_thread()) return cudaStreamPerThread;
  return s == cudaStreamLegacy ? nullptr : s;
}
capture *capture_of_locked(cudaStream_t s) {
  auto it = capturing.find(key(s));
  return it == capturing.end() ? nullptr : it->second;
}
void invalidate_locked(capture *c) {
  c->invalidated = true;
}

cudaGraphNode_t add_node_locked(cudaGraph_t g, cudaGraphNodeType type,
                                const std::vector<cudaGraphNode_t> &deps) {
  cudaGraphNode_t n = kept_at_exit(new CUgraphNode_st);
  n->graph = g;
  n->type = type;
  n->deps = deps;
  g->nodes.push_back(n);
  return n;
}
// A node for work queued on capturing stream s: after the stream's last nodes; it becomes them.
cudaGraphNode_t capture_node_locked(capture *c, cudaStream_t s, cudaGraphNodeType type) {
  std::vector<cudaGraphNode_t> &tips = c->tips[key(s)];
  cudaGraphNode_t n = add_node_locked(c->graph, type, tips);
  tips.assign(1, n);
  return n;
}

bool node_of(cudaGraph_t g, cudaGraphNode_t n) {
  return n != nullptr && n->graph == g;
}
bool valid_deps_locked(cudaGraph_t g, const cudaGraphNode_t *deps, size_t count) {
  if (count != 0 && deps == nullptr) return false;
  for (size_t i = 0; i < count; ++i) {
    if (!node_of(g, deps[i])) return false;
    for (size_t j = 0; j < i; ++j)
      if (deps[j] == deps[i]) return false; // CUDA refuses a repeated dependency
  }
  return true;
}

// The graph's nodes in an order their dependencies allow, creation order among the ready ones.
// False when the dependencies form a cycle.
bool topological(cudaGraph_t g, std::vector<cudaGraphNode_t> *out) {
  std::map<cudaGraphNode_t, size_t> index;
  for (size_t i = 0; i < g->nodes.size(); ++i) index[g->nodes[i]] = i;
  std::vector<size_t> waiting(g->nodes.size());
  std::vector<std::vector<size_t>> after(g->nodes.size());
  for (size_t i = 0; i < g->nodes.size(); ++i) {
    waiting[i] = g->nodes[i]->deps.size();
    for (cudaGraphNode_t d : g->nodes[i]->deps) after[index[d]].push_back(i);
  }
  std::priority_queue<size_t, std::vector<size_t>, std::greater<size_t>> ready;
  for (size_t i = 0; i < waiting.size(); ++i)
    if (waiting[i] == 0) ready.push(i);
  out->clear();
  while (!ready.empty()) {
    size_t i = ready.top();
    ready.pop();
    out->push_back(g->nodes[i]);
    for (size_t j : after[i])
      if (--waiting[j] == 0) ready.push(j);
  }
  return out->size() == g->nodes.size();
}

cudaGraph_t clone_graph(cudaGraph_t g, std::map<cudaGraphNode_t, cudaGraphNode_t> *map) {
  cudaGraph_t c = kept_at_exit(new CUgraph_st);
  std::map<cudaGraphNode_t, cudaGraphNode_t> local;
  if (!map) map = &local;
  for (cudaGraphNode_t n : g->nodes) {
    cudaGraphNode_t m = kept_at_exit(new CUgraphNode_st(*n));
    m->graph = c;
    m->cloned_from = n;
    if (n->child) m->child = clone_graph(n->child, nullptr);
    for (cudaGraph_t &b : m->bodies) b = clone_graph(b, nullptr);
    for (cudaGraphNode_t &d : m->deps) d = (*map)[d];
    (*map)[n] = m;
    c->nodes.push_back(m);
  }
  return c;
}

const char *type_name(cudaGraphNodeType t) {
  switch (t) {
  case cudaGraphNodeTypeKernel:
    return "kernel";
  case cudaGraphNodeTypeMemcpy:
    return "memcpy";
  case cudaGraphNodeTypeMemset:
    return "memset";
  case cudaGraphNodeTypeHost:
    return "host";
  case cudaGraphNodeTypeGraph:
    return "child graph";
  case cudaGraphNodeTypeEmpty:
    return "empty";
  case cudaGraphNodeTypeWaitEvent:
    return "event wait";
  case cudaGraphNodeTypeEventRecord:
    return "event record";
  default:
    return "other";
  }
}
} // namespace

// ---- the hooks of the launch path, the stream queues and the stream API ----

namespace {
void kernel_params_of(cudaGraphNode_t n, const kernel_base &k) {
  n->kparams.func = nullptr; // a captured launch names no function address
  n->kparams.gridDim = k.grid;
  n->kparams.blockDim = k.block_dim;
  n->kparams.sharedMemBytes = (unsigned)k.shared_bytes;
}
} // namespace

bool graph_takes_launch(kernel_base *k, bool pointers_ok) {
  if (kernel_node_slot) { // cudaGraphAddKernelNode
    if (pointers_ok)
      kernel_node_slot->reset(k);
    else
      delete k; // the argument was reported; the node is not made
    return true;
  }
  std::lock_guard<std::mutex> lock(gmu);
  capture *c = capture_of_locked(k->stream);
  if (!c) return false;
  cudaGraphNode_t n = capture_node_locked(c, k->stream, cudaGraphNodeTypeKernel);
  kernel_params_of(n, *k);
  if (pointers_ok) {
    n->kernel.reset(k);
  } else { // as such a launch does: the kernel fails when the graph runs (reported already)
    n->what = "a kernel with an invalid pointer argument";
    n->op = [] { set_sticky(cudaErrorIllegalAddress); };
    delete k;
  }
  return true;
}

bool graph_takes_launch_shared(cudaStream_t stream, const std::shared_ptr<kernel_base> &k) {
  std::lock_guard<std::mutex> lock(gmu);
  capture *c = capture_of_locked(stream);
  if (!c) return false;
  cudaGraphNode_t n = capture_node_locked(c, stream, cudaGraphNodeTypeKernel);
  kernel_params_of(n, *k);
  n->kernel = k;
  return true;
}

bool graph_takes_op(cudaStream_t stream, const std::function<void()> &fn, const char *what,
                    const std::vector<mem_access> &accesses) {
  std::unique_lock<std::mutex> lock(gmu);
  capture *c = capture_of_locked(stream);
  if (!c) {
    if (key(stream) != nullptr) return false;
    lock.unlock();
    capture_refuses_legacy(what ? what : "work on the legacy default stream");
    return false; // queued as it comes (the line said the capture is invalid)
  }
  if (capturable_depth == 0) {
    report("%s on a stream that is being captured into a CUDA graph is not simulated (the "
           "simulator captures kernels, copies, memsets, host functions, event records and "
           "waits); the capture is invalidated",
           what ? what : "an operation");
    invalidate_locked(c);
    return true;
  }
  bool is_set = what && std::strstr(what, "emset") != nullptr;
  cudaGraphNode_t n =
      capture_node_locked(c, stream, is_set ? cudaGraphNodeTypeMemset : cudaGraphNodeTypeMemcpy);
  n->op = fn;
  n->what = what ? what : "an operation";
  n->accesses = accesses;
  return true;
}

bool capture_event_record(cudaEvent_t event, cudaStream_t stream, cudaError_t *status) {
  {
    std::lock_guard<std::mutex> lock(mu);
    if (!events.count(event)) return false; // the ordinary path reports it
  }
  std::lock_guard<std::mutex> lock(gmu);
  capture *c = capture_of_locked(stream);
  if (!c) {
    captured_events.erase(event); // recorded outside any capture now
    return false;
  }
  captured_events[event] = captured_record{c->id, c->tips[key(stream)]};
  *status = cudaSuccess;
  return true;
}

bool capture_stream_wait(cudaStream_t stream, cudaEvent_t event, cudaError_t *status) {
  std::lock_guard<std::mutex> lock(gmu);
  capture *c = capture_of_locked(stream);
  auto rec = captured_events.find(event);
  capture *from = nullptr;
  if (rec != captured_events.end()) {
    auto it = captures_by_id.find(rec->second.capture_id);
    if (it != captures_by_id.end()) from = it->second;
  }
  if (!from) {
    if (!c) return false; // an ordinary wait
    // An event recorded outside the capture: the graph could not hold that dependency.
    report("cudaStreamWaitEvent: a stream being captured waits for an event recorded outside the "
           "capture (cudaErrorStreamCaptureIsolation); the capture is invalidated");
    invalidate_locked(c);
    *status = cudaErrorStreamCaptureIsolation;
    return true;
  }
  if (c && c != from) {
    report("cudaStreamWaitEvent: it would merge two separate stream captures "
           "(cudaErrorStreamCaptureMerge)");
    invalidate_locked(c);
    invalidate_locked(from);
    *status = cudaErrorStreamCaptureMerge;
    return true;
  }
  std::vector<cudaGraphNode_t> &tips = from->tips[key(stream)];
  if (!c) { // the stream joins the capture (a fork)
    capturing[key(stream)] = from;
    tips = rec->second.nodes;
  } else { // a join: after both
    for (cudaGraphNode_t n : rec->second.nodes)
      if (std::find(tips.begin(), tips.end(), n) == tips.end()) tips.push_back(n);
  }
  *status = cudaSuccess;
  return true;
}

bool capture_host_function(cudaStream_t stream, cudaHostFn_t fn, void *data, cudaError_t *status) {
  std::lock_guard<std::mutex> lock(gmu);
  capture *c = capture_of_locked(stream);
  if (!c) return false;
  cudaGraphNode_t n = capture_node_locked(c, stream, cudaGraphNodeTypeHost);
  n->host.fn = fn;
  n->host.userData = data;
  *status = cudaSuccess;
  return true;
}

bool capture_refuses_sync(const char *api, cudaStream_t stream, bool device_wide,
                          cudaError_t *status) {
  std::lock_guard<std::mutex> lock(gmu);
  capture *c = nullptr;
  if (device_wide) {
    for (auto &kv : capturing)
      if (kv.second->mode != cudaStreamCaptureModeRelaxed) c = kv.second;
  } else {
    c = capture_of_locked(stream);
  }
  if (!c) return false;
  report("%s during a stream capture: not permitted while work is being captured "
         "(cudaErrorStreamCaptureUnsupported); the capture is invalidated",
         api);
  invalidate_locked(c);
  *status = cudaErrorStreamCaptureUnsupported;
  return true;
}

bool capture_refuses_call(const char *api, cudaStream_t stream, const char *what,
                          cudaError_t *status) {
  std::lock_guard<std::mutex> lock(gmu);
  capture *c = capture_of_locked(stream);
  if (!c) return false;
  report("%s on a stream that is being captured into a CUDA graph (%s) is not simulated; the "
         "capture is invalidated",
         api, what);
  invalidate_locked(c);
  *status = cudaErrorStreamCaptureUnsupported;
  return true;
}

bool capture_prohibits(const char *api, cudaError_t *status) {
  if (thread_capture_mode == cudaStreamCaptureModeRelaxed) return false;
  std::lock_guard<std::mutex> lock(gmu);
  capture *c = nullptr;
  for (auto &kv : captures_by_id) {
    capture *k = kv.second;
    bool mine = k->thread == std::this_thread::get_id();
    if (k->mode == cudaStreamCaptureModeGlobal ||
        (mine && k->mode == cudaStreamCaptureModeThreadLocal))
      c = k;
  }
  if (!c) return false;
  report("%s while a stream capture is under way (a call that is not captured, and prohibited "
         "during a capture not begun with cudaStreamCaptureModeRelaxed: "
         "cudaErrorStreamCaptureUnsupported); the capture is invalidated",
         api);
  invalidate_locked(c);
  *status = cudaErrorStreamCaptureUnsupported;
  return true;
}

bool capture_refuses_legacy(const char *api) {
  std::lock_guard<std::mutex> lock(gmu);
  capture *c = nullptr;
  for (auto &kv : capturing) {
    if (kv.first == nullptr || kv.first == cudaStreamPerThread) continue;
    bool blocking;
    { blocking = (kv.first->flags & cudaStreamNonBlocking) == 0; }
    if (blocking && !kv.second->invalidated) c = kv.second;
  }
  if (!c) return false;
  report("%s while a stream that is not cudaStreamNonBlocking is being captured: the legacy "
         "default stream would wait for the capture (cudaErrorStreamCaptureImplicit); the "
         "capture is invalidated",
         api);
  invalidate_locked(c);
  return true;
}

void capture_stream_destroyed(cudaStream_t stream) {
  std::lock_guard<std::mutex> lock(gmu);
  capture *c = capture_of_locked(stream);
  if (!c) return;
  if (c->origin != key(stream)) { // joined back (the origin waits for its last nodes): it may go
    std::set<cudaGraphNode_t> before;
    std::vector<cudaGraphNode_t> todo = c->tips[c->origin];
    while (!todo.empty()) {
      cudaGraphNode_t n = todo.back();
      todo.pop_back();
      if (before.insert(n).second)
        for (cudaGraphNode_t d : n->deps) todo.push_back(d);
    }
    bool joined = true;
    for (cudaGraphNode_t n : c->tips[key(stream)]) joined = joined && before.count(n) != 0;
    if (joined) {
      c->tips.erase(key(stream));
      capturing.erase(key(stream));
      return;
    }
  }
  report("cudaStreamDestroy: the stream takes part in a stream capture that has not ended; the "
         "capture is invalidated");
  invalidate_locked(c);
  capturing.erase(key(stream));
  if (c->origin != key(stream)) return;
  // Its capture can no longer be ended: it goes, with the streams that joined it.
  for (auto it = capturing.begin(); it != capturing.end();)
    it = it->second == c ? capturing.erase(it) : std::next(it);
  captures_by_id.erase(c->id);
  captures_active.fetch_sub(1);
  if (!c->into_existing) delete c->graph;
  delete c;
}

bool capture_event_refused(const char *api, cudaEvent_t event, cudaError_t *status) {
  std::lock_guard<std::mutex> lock(gmu);
  auto rec = captured_events.find(event);
  if (rec == captured_events.end() || !captures_by_id.count(rec->second.capture_id)) return false;
  report("%s: the event was last recorded in a stream capture that has not ended "
         "(cudaErrorCapturedEvent): the capture records the event, it does not happen",
         api);
  *status = cudaErrorCapturedEvent;
  return true;
}

void capture_event_forgotten(cudaEvent_t event) {
  std::lock_guard<std::mutex> lock(gmu);
  captured_events.erase(event);
}

} // namespace rt
} // namespace cusim

using namespace cusim::rt;
using cusim::rt::set_error;

namespace {
// One line naming the call, and cudaErrorNotSupported: what the simulator does not do.
cudaError_t not_simulated(const char *api, const char *what) {
  report("%s: %s is not simulated", api, what);
  return set_error(cudaErrorNotSupported);
}
bool live_graph_locked(cudaGraph_t g) {
  return g != nullptr &&
         (graphs.count(g) != 0 || body_graphs.count(g) != 0 || capture_graph_locked(g));
}
// Makes a node of type `type` in graph after deps (cudaGraphAdd*Node's common part).
cudaError_t add_explicit(const char *api, cudaGraphNode_t *out, cudaGraph_t graph,
                         const cudaGraphNode_t *deps, size_t count, cudaGraphNodeType type,
                         const std::function<void(cudaGraphNode_t)> &fill) {
  std::lock_guard<std::mutex> lock(gmu);
  if (!out || !live_graph_locked(graph)) return set_error(cudaErrorInvalidValue);
  if (!valid_deps_locked(graph, deps, count)) {
    report("%s: a dependency is not a node of this graph (or is given twice)", api);
    return set_error(cudaErrorInvalidValue);
  }
  cudaGraphNode_t n =
      add_node_locked(graph, type, std::vector<cudaGraphNode_t>(deps, deps + count));
  if (fill) fill(n);
  *out = n;
  return cudaSuccess;
}

// A kernel node's launch, prepared now by the path of every launch (the configuration and the
// argument checks; the arguments copied, as cudaGraphAddKernelNode copies them).
cudaError_t prepare_kernel(const char *api, const cudaKernelNodeParams *p,
                           std::shared_ptr<kernel_base> *out) {
  if (!p || !p->func) return set_error(cudaErrorInvalidValue);
  if (p->extra != nullptr)
    return not_simulated(api, "the 'extra' parameter buffer of a kernel node (pass kernelParams)");
  std::shared_ptr<kernel_base> k;
  kernel_node_slot = &k;
  cusim::launch_registered(api, 0, p->func, p->gridDim, p->blockDim, p->kernelParams,
                           p->sharedMemBytes, nullptr);
  kernel_node_slot = nullptr;
  if (!k) {
    cudaError_t e = cudaPeekAtLastError();
    return set_error(e != cudaSuccess ? e : cudaErrorInvalidValue);
  }
  *out = std::move(k);
  return cudaSuccess;
}

cudaError_t check_copy_params(const char *api, const cudaMemcpy3DParms *p) {
  if (!p) return set_error(cudaErrorInvalidValue);
  if (p->srcArray || p->dstArray)
    return not_simulated(api, "a copy to or from a CUDA array in a graph node");
  if (!p->srcPtr.ptr || !p->dstPtr.ptr || (int)p->kind < 0 || (int)p->kind > 4)
    return set_error(cudaErrorInvalidValue);
  return cudaSuccess;
}
cudaMemcpy3DParms copy_1d(void *dst, const void *src, size_t count, cudaMemcpyKind kind) {
  cudaMemcpy3DParms p{};
  p.srcPtr = make_cudaPitchedPtr(const_cast<void *>(src), count, count, 1);
  p.dstPtr = make_cudaPitchedPtr(dst, count, count, 1);
  p.extent = make_cudaExtent(count, 1, 1);
  p.kind = kind;
  return p;
}

cudaError_t check_set_params(const char *api, const cudaMemsetParams *p) {
  if (!p || !p->dst) return set_error(cudaErrorInvalidValue);
  if (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4) {
    report("%s: elementSize %u is not 1, 2 or 4", api, p->elementSize);
    return set_error(cudaErrorInvalidValue);
  }
  size_t row = p->width * p->elementSize;
  if (p->height > 1 && p->pitch < row) {
    report("%s: the pitch %zu is smaller than a row of %zu bytes", api, p->pitch, row);
    return set_error(cudaErrorInvalidValue);
  }
  size_t span = p->height == 0 || row == 0 ? 0 : (p->height - 1) * p->pitch + row;
  lookup l = find(p->dst);
  if (span && (!l.live || l.kind == mem_kind::pinned || l.kind == mem_kind::registered ||
               (uintptr_t)p->dst + span > l.base + l.size)) {
    report("%s: [%p, +%zu bytes) is not inside one device allocation", api, p->dst, span);
    return set_error(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

// ---- conditional nodes: the handles' values, and the bodies run when the node runs ----
// A handle's value lives here (one executable graph per graph with conditional nodes, as CUDA
// requires, so one value per handle). At each launch it is the default (cudaGraphCondAssignDefault)
// or unset: a node that reads an unset value stops the launch with one line (CUDA leaves the
// value undefined then).
struct cond_state {
  cudaGraph_t graph = nullptr; // the graph it was made for
  unsigned default_value = 0;
  unsigned flags = 0;
  std::atomic<unsigned> value{0};
  std::atomic<bool> set{false};
  cudaGraphExec_t exec = nullptr; // the executable graph that uses it now
};
std::mutex cond_mu; // guards conds' growth (kernels read it while the host may add handles)
std::deque<cond_state> conds; // handle h is conds[h - 1]
cond_state *cond_of(cudaGraphConditionalHandle h) {
  std::lock_guard<std::mutex> lock(cond_mu);
  return h == 0 || h > conds.size() ? nullptr : &conds[h - 1];
}

void run_body(cudaGraph_t g, const point &p);
// A conditional node, when it runs: its body graphs, as the handle's value says.
void run_conditional(cudaGraphNode_t n, const point &p) {
  cond_state *c = cond_of(n->cond);
  auto read = [&](unsigned *v) {
    if (!c || !c->set.load()) {
      report("a conditional node reads handle %llu, which has no value in this launch: no kernel "
             "set it (cudaGraphSetConditional) before the node ran, and it has no default "
             "(cudaGraphCondAssignDefault): CUDA leaves the value undefined (is the kernel that "
             "sets it a dependency of the node?)",
             (unsigned long long)n->cond);
      set_sticky(cudaErrorLaunchFailure);
      return false;
    }
    *v = c->value.load();
    return true;
  };
  unsigned v = 0;
  switch (n->cond_type) {
  case cudaGraphCondTypeIf:
    if (!read(&v)) return;
    if (v != 0)
      run_body(n->bodies[0], p);
    else if (n->bodies.size() == 2)
      run_body(n->bodies[1], p);
    return;
  case cudaGraphCondTypeWhile:
    while (sticky() == cudaSuccess && read(&v) && v != 0) run_body(n->bodies[0], p);
    return;
  case cudaGraphCondTypeSwitch:
    if (read(&v) && v < n->bodies.size()) run_body(n->bodies[v], p);
    return;
  }
}
// A body graph's nodes, one after another inside the conditional node's operation (its point p:
// the stream-race check sees them as that node's work). More order than a GPU keeps between the
// body's independent nodes: never a false race, and a race between them goes unseen.
void run_body(cudaGraph_t g, const point &p) {
  std::vector<cudaGraphNode_t> order;
  topological(g, &order);
  for (cudaGraphNode_t n : order) {
    if (sticky() != cudaSuccess) return;
    if (n->op) { // a captured copy or memset, or a memset node
      if (!n->accesses.empty()) note_accesses(p, n->accesses, n->what.c_str());
      n->op();
      continue;
    }
    switch (n->type) {
    case cudaGraphNodeTypeKernel: {
      bool watching = kernel_watch_begin(p);
      cudaError_t e = run_kernel(n->kernel.get());
      bool race = kernel_watch_end(p, e == cudaSuccess ? n->kernel.get() : nullptr, watching);
      if (e != cudaSuccess)
        set_sticky(e);
      else if (race)
        set_sticky(cudaErrorIllegalState);
      break;
    }
    case cudaGraphNodeTypeMemcpy: {
      const cudaMemcpy3DParms &c = n->copy;
      for (size_t z = 0; z < c.extent.depth; ++z)
        for (size_t y = 0; y < c.extent.height; ++y) {
          char *dst = (char *)c.dstPtr.ptr +
                      ((c.dstPos.z + z) * c.dstPtr.ysize + c.dstPos.y + y) * c.dstPtr.pitch +
                      c.dstPos.x;
          const char *src = (const char *)c.srcPtr.ptr +
                            ((c.srcPos.z + z) * c.srcPtr.ysize + c.srcPos.y + y) * c.srcPtr.pitch +
                            c.srcPos.x;
          note_accesses(p, {{src, c.extent.width, false}, {dst, c.extent.width, true}},
                        "a memcpy node in a conditional body");
          std::memmove(dst, src, c.extent.width);
        }
      break;
    }
    case cudaGraphNodeTypeGraph:
      run_body(n->child, p);
      break;
    case cudaGraphNodeTypeConditional:
      run_conditional(n, p);
      break;
    default: // empty (what else a body may not hold was refused at instantiation)
      break;
    }
  }
}

// ---- running a graph: each node queued on the stream in the order of exec->order ----
cudaError_t run_node(cudaGraphNode_t n, cudaStream_t s);
cudaError_t run_graph(cudaGraph_t g, const std::vector<cudaGraphNode_t> &order, cudaStream_t s) {
  (void)g;
  for (cudaGraphNode_t n : order) {
    cudaError_t e = run_node(n, s);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}
cudaError_t run_copy(const cudaMemcpy3DParms &p, cudaStream_t s) {
  const cudaExtent &x = p.extent;
  if (x.width == 0 || x.height == 0 || x.depth == 0) return cudaSuccess;
  for (size_t z = 0; z < x.depth; ++z) {
    char *dst = (char *)p.dstPtr.ptr +
                ((p.dstPos.z + z) * p.dstPtr.ysize + p.dstPos.y) * p.dstPtr.pitch + p.dstPos.x;
    const char *src = (const char *)p.srcPtr.ptr +
                      ((p.srcPos.z + z) * p.srcPtr.ysize + p.srcPos.y) * p.srcPtr.pitch +
                      p.srcPos.x;
    cudaError_t e = x.height == 1 ? cudaMemcpyAsync(dst, src, x.width, p.kind, s)
                                  : cudaMemcpy2DAsync(dst, p.dstPtr.pitch, src, p.srcPtr.pitch,
                                                      x.width, x.height, p.kind, s);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}
cudaError_t run_node(cudaGraphNode_t n, cudaStream_t s) {
  if (n->op) { // a captured copy or memset, or a memset node: queued as its call queued it
    capturable_call capturable;
    enqueue(s, n->op, n->what.c_str(), n->accesses);
    return set_error(sticky());
  }
  switch (n->type) {
  case cudaGraphNodeTypeKernel:
    if (sticky() != cudaSuccess) return set_error(sticky());
    enqueue_launch(s, n->kernel);
    return cudaSuccess;
  case cudaGraphNodeTypeMemcpy:
    return run_copy(n->copy, s);
  case cudaGraphNodeTypeHost:
    return cudaLaunchHostFunc(s, n->host.fn, n->host.userData);
  case cudaGraphNodeTypeEventRecord:
    return cudaEventRecord(n->event, s);
  case cudaGraphNodeTypeWaitEvent:
    return cudaStreamWaitEvent(s, n->event, 0);
  case cudaGraphNodeTypeGraph: {
    std::vector<cudaGraphNode_t> order;
    topological(n->child, &order);
    return run_graph(n->child, order, s);
  }
  case cudaGraphNodeTypeMemAlloc:
  case cudaGraphNodeTypeMemFree: {
    std::shared_ptr<graph_block> b = n->block;
    bool allocate = n->type == cudaGraphNodeTypeMemAlloc;
    enqueue(s, [b, allocate] { graph_block_run(b.get(), allocate); });
    return cudaSuccess;
  }
  case cudaGraphNodeTypeConditional: {
    // A copy of the node and its bodies for this launch: CUDA lets the program destroy the
    // executable graph while a launch is still queued (it goes when the launch is done).
    std::shared_ptr<CUgraphNode_st> copy(new CUgraphNode_st(*n), [](CUgraphNode_st *c) {
      for (cudaGraph_t b : c->bodies) delete b;
      delete c;
    });
    copy->child = nullptr;
    for (cudaGraph_t &b : copy->bodies) b = clone_graph(b, nullptr);
    auto at = std::make_shared<point>(); // its point: the bodies' work is checked as its own
    *at = enqueue(s, [copy, at] {
      if (sticky() == cudaSuccess) run_conditional(copy.get(), *at);
    });
    kernel_queued(*at);
    return cudaSuccess;
  }
  default:
    return cudaSuccess; // empty
  }
}

// The memset node's operation (its bytes known: checked against other streams' work).
void make_set_op(cudaGraphNode_t n) {
  cudaMemsetParams p = n->set;
  size_t row = p.width * p.elementSize;
  size_t span = p.height == 0 || row == 0 ? 0 : (p.height - 1) * p.pitch + row;
  n->what = "a memset node";
  n->accesses.assign(1, mem_access{p.dst, span, true});
  n->op = [p] {
    if (sticky() != cudaSuccess) return;
    for (size_t r = 0; r < p.height; ++r) {
      char *row_start = (char *)p.dst + r * p.pitch;
      for (size_t i = 0; i < p.width; ++i)
        std::memcpy(row_start + i * p.elementSize, &p.value, p.elementSize); // little-endian
    }
  };
}

// Branches: a node continues the branch of a dependency that no other node continued yet, else
// starts a new one. Nodes on different branches are ordered only by their dependencies.
std::vector<int> branches_of(const std::vector<cudaGraphNode_t> &order) {
  std::vector<int> branch(order.size());
  std::map<cudaGraphNode_t, int> branch_of;
  std::vector<cudaGraphNode_t> tail; // per branch: its last node
  for (size_t i = 0; i < order.size(); ++i) {
    int b = -1;
    for (cudaGraphNode_t d : order[i]->deps) {
      int db = branch_of[d];
      if (tail[db] == d) {
        b = db;
        break;
      }
    }
    if (b < 0) {
      b = (int)tail.size();
      tail.push_back(nullptr);
    }
    tail[b] = order[i];
    branch_of[order[i]] = b;
    branch[i] = b;
  }
  return branch;
}

// The runtime's own streams for graph branches, shared by every executable graph (a branch's
// earlier nodes come before its later ones: an order a GPU need not keep, so never a false race).
std::mutex branch_mu;
std::vector<cudaStream_t> branch_streams;
cudaStream_t branch_stream(int i) {
  std::lock_guard<std::mutex> lock(branch_mu);
  while ((int)branch_streams.size() <= i) {
    cudaStream_t s = new CUstream_st{cudaStreamNonBlocking, 0};
#if defined(CUSIM_ASAN)
    __lsan_ignore_object(s);
#endif
    {
      std::lock_guard<std::mutex> l2(mu);
      streams.insert(s);
    }
    stream_created(s, cudaStreamNonBlocking);
    stream_is_graph_branch(s, (int)branch_streams.size() + 1);
    branch_streams.push_back(s);
  }
  return branch_streams[i];
}

// A launch: each node on its branch's stream, after the launch stream's earlier work and its
// dependencies; the launch stream's later work after every node. Independent nodes are then
// unordered, as on a GPU, and the stream-race check sees two of them that touch the same bytes.
cudaError_t run_branches(const std::vector<cudaGraphNode_t> &order, const std::vector<int> &branch,
                         cudaStream_t s, const std::function<void()> &at_start) {
  point start = enqueue(s, at_start);
  std::map<cudaGraphNode_t, point> end;
  cudaError_t e = cudaSuccess;
  for (size_t i = 0; i < order.size() && e == cudaSuccess; ++i) {
    cudaStream_t b = branch_stream(branch[i]);
    wait_point(b, start);
    for (cudaGraphNode_t d : order[i]->deps) wait_point(b, end[d]);
    e = run_node(order[i], b);
    end[order[i]] = enqueue(b, [] {});
  }
  for (auto &kv : end) wait_point(s, kv.second);
  enqueue(s, [] {}); // the launch's end: a wait for the stream waits for every node
  return e;
}

// What a graph holds that its use forbids (instantiate): memory nodes only in the graph itself,
// and a body graph holds kernel, empty, child graph, memset, memcpy and conditional nodes only.
// Collects the graphs whose handles the executable graph uses.
bool check_nested(cudaGraph_t g, bool top, bool in_body, const char *api,
                  std::set<cudaGraph_t> *graphs_used) {
  graphs_used->insert(g);
  for (cudaGraphNode_t n : g->nodes) {
    cudaGraphNodeType t = n->type;
    if (!top && (t == cudaGraphNodeTypeMemAlloc || t == cudaGraphNodeTypeMemFree)) {
      report("%s: a memory node inside a child graph or a conditional body is not simulated (a "
             "child graph made by copying may not hold one in CUDA)",
             api);
      return false;
    }
    if (in_body && t != cudaGraphNodeTypeKernel && t != cudaGraphNodeTypeEmpty &&
        t != cudaGraphNodeTypeGraph && t != cudaGraphNodeTypeMemset &&
        t != cudaGraphNodeTypeMemcpy && t != cudaGraphNodeTypeConditional) {
      report("%s: a conditional node's body holds a%s %s node; CUDA allows only kernel, empty, "
             "child graph, memset, memcpy and conditional nodes there",
             api, t == cudaGraphNodeTypeEventRecord ? "n" : "", type_name(t));
      return false;
    }
    if (n->child && !check_nested(n->child, false, in_body, api, graphs_used)) return false;
    for (cudaGraph_t b : n->bodies)
      if (!check_nested(b, false, true, api, graphs_used)) return false;
  }
  return true;
}

cudaError_t instantiate(cudaGraphExec_t *out, cudaGraph_t graph, unsigned long long flags,
                        const char *api) {
  if (!out) return set_error(cudaErrorInvalidValue);
  if (flags & cudaGraphInstantiateFlagDeviceLaunch)
    return not_simulated(api, "a graph launched from device code (DeviceLaunch)");
  std::lock_guard<std::mutex> lock(gmu);
  if (!live_graph_locked(graph)) return set_error(cudaErrorInvalidValue);
  std::set<cudaGraph_t> used;
  if (!check_nested(graph, true, false, api, &used)) return set_error(cudaErrorInvalidValue);
  std::vector<cudaGraphConditionalHandle> handles;
  {
    std::lock_guard<std::mutex> l2(cond_mu);
    for (size_t i = 0; i < conds.size(); ++i) {
      if (!used.count(conds[i].graph)) continue;
      if (conds[i].exec && execs.count(conds[i].exec)) {
        report("%s: a graph with conditional nodes may have one executable graph at a time "
               "(CUDA); destroy the other with cudaGraphExecDestroy first",
               api);
        return set_error(cudaErrorInvalidValue);
      }
      handles.push_back(i + 1);
    }
  }
  cudaGraphExec_t x = kept_at_exit(new CUgraphExec_st);
  x->graph = clone_graph(graph, &x->of);
  x->flags = flags;
  x->handles = handles;
  for (cudaGraphConditionalHandle h : handles) cond_of(h)->exec = x;
  for (cudaGraphNode_t n : x->graph->nodes)
    if (n->block) x->has_memory_nodes = true;
  if (!topological(x->graph, &x->order)) {
    delete x;
    report("%s: the graph's dependencies form a cycle", api);
    return set_error(cudaErrorInvalidValue);
  }
  x->branch = branches_of(x->order);
  execs.insert(x);
  *out = x;
  return cudaSuccess;
}
// The copy, in an executable graph, of node n of the graph it was made from.
cudaGraphNode_t exec_node_locked(cudaGraphExec_t x, cudaGraphNode_t n) {
  if (!x || !execs.count(x)) return nullptr;
  auto it = x->of.find(n);
  return it == x->of.end() ? nullptr : it->second;
}
} // namespace

extern "C" {

// ---- graphs ----

// True (reported) when g holds a conditional node: CUDA does not clone such a graph, nor copy it
// into a child graph node.
static bool refuses_conditional_locked(const char *api, cudaGraph_t g) {
  for (cudaGraphNode_t n : g->nodes)
    if (n->type == cudaGraphNodeTypeConditional) {
      report("%s: the graph holds a conditional node, and such a graph cannot be cloned or "
             "used as a child graph (CUDA)",
             api);
      return true;
    }
  return false;
}
cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags) {
  if (!pGraph || flags != 0) return set_error(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(gmu);
  cudaGraph_t g = kept_at_exit(new CUgraph_st);
  graphs.insert(g);
  *pGraph = g;
  return cudaSuccess;
}
cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  {
    std::lock_guard<std::mutex> lock(gmu);
    if (!graphs.erase(graph)) return set_error(cudaErrorInvalidValue);
    delete graph;
  }
  graph_memory_release_pending();
  return cudaSuccess;
}
cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph) {
  std::lock_guard<std::mutex> lock(gmu);
  if (!pGraphClone || !live_graph_locked(originalGraph)) return set_error(cudaErrorInvalidValue);
  if (refuses_conditional_locked("cudaGraphClone", originalGraph))
    return set_error(cudaErrorInvalidValue);
  cudaGraph_t c = clone_graph(originalGraph, nullptr);
  graphs.insert(c);
  *pGraphClone = c;
  return cudaSuccess;
}
cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t originalNode,
                                     cudaGraph_t clonedGraph) {
  std::lock_guard<std::mutex> lock(gmu);
  if (!pNode || !live_graph_locked(clonedGraph)) return set_error(cudaErrorInvalidValue);
  for (cudaGraphNode_t n : clonedGraph->nodes)
    if (n->cloned_from == originalNode) {
      *pNode = n;
      return cudaSuccess;
    }
  return set_error(cudaErrorInvalidValue);
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaKernelNodeParams *pNodeParams) {
  std::shared_ptr<kernel_base> k;
  cudaError_t e = prepare_kernel("cudaGraphAddKernelNode", pNodeParams, &k);
  if (e != cudaSuccess) return e;
  return add_explicit("cudaGraphAddKernelNode", pGraphNode, graph, pDependencies, numDependencies,
                      cudaGraphNodeTypeKernel, [&](cudaGraphNode_t n) {
                        n->kernel = k;
                        n->kparams = *pNodeParams;
                        n->kparams.kernelParams = nullptr; // copied: the caller's may go
                      });
}
cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node,
                                         struct cudaKernelNodeParams *pNodeParams) {
  if (!node || !pNodeParams || node->type != cudaGraphNodeTypeKernel)
    return set_error(cudaErrorInvalidValue);
  if (!node->kparams.func)
    return not_simulated("cudaGraphKernelNodeGetParams",
                         "reading the parameters of a captured kernel node");
  *pNodeParams = node->kparams;
  return cudaSuccess;
}
cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                         const struct cudaKernelNodeParams *pNodeParams) {
  if (!node || node->type != cudaGraphNodeTypeKernel) return set_error(cudaErrorInvalidValue);
  std::shared_ptr<kernel_base> k;
  cudaError_t e = prepare_kernel("cudaGraphKernelNodeSetParams", pNodeParams, &k);
  if (e != cudaSuccess) return e;
  std::lock_guard<std::mutex> lock(gmu);
  node->kernel = k;
  node->op = nullptr;
  node->kparams = *pNodeParams;
  node->kparams.kernelParams = nullptr;
  return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaMemcpy3DParms *pCopyParams) {
  cudaError_t e = check_copy_params("cudaGraphAddMemcpyNode", pCopyParams);
  if (e != cudaSuccess) return e;
  return add_explicit("cudaGraphAddMemcpyNode", pGraphNode, graph, pDependencies, numDependencies,
                      cudaGraphNodeTypeMemcpy, [&](cudaGraphNode_t n) { n->copy = *pCopyParams; });
}
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                     void *dst, const void *src, size_t count,
                                     enum cudaMemcpyKind kind) {
  cudaMemcpy3DParms p = copy_1d(dst, src, count, kind);
  cudaError_t e = check_copy_params("cudaGraphAddMemcpyNode1D", &p);
  if (e != cudaSuccess) return e;
  return add_explicit("cudaGraphAddMemcpyNode1D", pGraphNode, graph, pDependencies, numDependencies,
                      cudaGraphNodeTypeMemcpy, [&](cudaGraphNode_t n) { n->copy = p; });
}
cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node,
                                         struct cudaMemcpy3DParms *pNodeParams) {
  if (!node || !pNodeParams || node->type != cudaGraphNodeTypeMemcpy)
    return set_error(cudaErrorInvalidValue);
  if (node->op)
    return not_simulated("cudaGraphMemcpyNodeGetParams",
                         "reading the parameters of a captured memcpy node");
  *pNodeParams = node->copy;
  return cudaSuccess;
}
cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node,
                                         const struct cudaMemcpy3DParms *pNodeParams) {
  if (!node || node->type != cudaGraphNodeTypeMemcpy) return set_error(cudaErrorInvalidValue);
  cudaError_t e = check_copy_params("cudaGraphMemcpyNodeSetParams", pNodeParams);
  if (e != cudaSuccess) return e;
  std::lock_guard<std::mutex> lock(gmu);
  node->op = nullptr;
  node->copy = *pNodeParams;
  return cudaSuccess;
}
cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst, const void *src,
                                           size_t count, enum cudaMemcpyKind kind) {
  cudaMemcpy3DParms p = copy_1d(dst, src, count, kind);
  return cudaGraphMemcpyNodeSetParams(node, &p);
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaMemsetParams *pMemsetParams) {
  cudaError_t e = check_set_params("cudaGraphAddMemsetNode", pMemsetParams);
  if (e != cudaSuccess) return e;
  return add_explicit("cudaGraphAddMemsetNode", pGraphNode, graph, pDependencies, numDependencies,
                      cudaGraphNodeTypeMemset, [&](cudaGraphNode_t n) {
                        n->set = *pMemsetParams;
                        make_set_op(n);
                      });
}
cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node,
                                         struct cudaMemsetParams *pNodeParams) {
  if (!node || !pNodeParams || node->type != cudaGraphNodeTypeMemset)
    return set_error(cudaErrorInvalidValue);
  if (!node->set.dst)
    return not_simulated("cudaGraphMemsetNodeGetParams",
                         "reading the parameters of a captured memset node");
  *pNodeParams = node->set;
  return cudaSuccess;
}
cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node,
                                         const struct cudaMemsetParams *pNodeParams) {
  if (!node || node->type != cudaGraphNodeTypeMemset) return set_error(cudaErrorInvalidValue);
  cudaError_t e = check_set_params("cudaGraphMemsetNodeSetParams", pNodeParams);
  if (e != cudaSuccess) return e;
  std::lock_guard<std::mutex> lock(gmu);
  node->set = *pNodeParams;
  make_set_op(node);
  return cudaSuccess;
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                 const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                 const struct cudaHostNodeParams *pNodeParams) {
  if (!pNodeParams || !pNodeParams->fn) return set_error(cudaErrorInvalidValue);
  return add_explicit("cudaGraphAddHostNode", pGraphNode, graph, pDependencies, numDependencies,
                      cudaGraphNodeTypeHost, [&](cudaGraphNode_t n) { n->host = *pNodeParams; });
}
cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node,
                                       struct cudaHostNodeParams *pNodeParams) {
  if (!node || !pNodeParams || node->type != cudaGraphNodeTypeHost)
    return set_error(cudaErrorInvalidValue);
  *pNodeParams = node->host;
  return cudaSuccess;
}
cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node,
                                       const struct cudaHostNodeParams *pNodeParams) {
  if (!node || !pNodeParams || !pNodeParams->fn || node->type != cudaGraphNodeTypeHost)
    return set_error(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(gmu);
  node->host = *pNodeParams;
  return cudaSuccess;
}

cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                       cudaGraph_t childGraph) {
  {
    std::lock_guard<std::mutex> lock(gmu);
    if (!live_graph_locked(childGraph) || childGraph == graph)
      return set_error(cudaErrorInvalidValue);
    if (refuses_conditional_locked("cudaGraphAddChildGraphNode", childGraph))
      return set_error(cudaErrorInvalidValue);
  }
  cudaGraph_t copy = nullptr;
  {
    std::lock_guard<std::mutex> lock(gmu);
    copy = clone_graph(childGraph, nullptr); // CUDA copies the child graph into the node
  }
  cudaError_t e =
      add_explicit("cudaGraphAddChildGraphNode", pGraphNode, graph, pDependencies, numDependencies,
                   cudaGraphNodeTypeGraph, [&](cudaGraphNode_t n) { n->child = copy; });
  if (e != cudaSuccess) delete copy;
  return e;
}
cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph) {
  if (!node || !pGraph || node->type != cudaGraphNodeTypeGraph)
    return set_error(cudaErrorInvalidValue);
  *pGraph = node->child;
  return cudaSuccess;
}
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                  const cudaGraphNode_t *pDependencies, size_t numDependencies) {
  return add_explicit("cudaGraphAddEmptyNode", pGraphNode, graph, pDependencies, numDependencies,
                      cudaGraphNodeTypeEmpty, nullptr);
}
cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                        const cudaGraphNode_t *pDependencies,
                                        size_t numDependencies, cudaEvent_t event) {
  {
    std::lock_guard<std::mutex> lock(mu);
    if (!events.count(event)) return set_error(cudaErrorInvalidValue);
  }
  return add_explicit("cudaGraphAddEventRecordNode", pGraphNode, graph, pDependencies,
                      numDependencies, cudaGraphNodeTypeEventRecord,
                      [&](cudaGraphNode_t n) { n->event = event; });
}
cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                      const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                      cudaEvent_t event) {
  {
    std::lock_guard<std::mutex> lock(mu);
    if (!events.count(event)) return set_error(cudaErrorInvalidValue);
  }
  return add_explicit("cudaGraphAddEventWaitNode", pGraphNode, graph, pDependencies,
                      numDependencies, cudaGraphNodeTypeWaitEvent,
                      [&](cudaGraphNode_t n) { n->event = event; });
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType) {
  if (!node || !pType) return set_error(cudaErrorInvalidValue);
  *pType = node->type;
  return cudaSuccess;
}
// The list calls: with a null array, the count; else up to *count entries (nulls past the end).
static cudaError_t list_nodes(const std::vector<cudaGraphNode_t> &all, cudaGraphNode_t *out,
                              size_t *count) {
  if (!count) return set_error(cudaErrorInvalidValue);
  if (out) {
    for (size_t i = 0; i < *count; ++i) out[i] = i < all.size() ? all[i] : nullptr;
    if (*count > all.size()) *count = all.size();
  } else {
    *count = all.size();
  }
  return cudaSuccess;
}
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes) {
  std::lock_guard<std::mutex> lock(gmu);
  if (!live_graph_locked(graph)) return set_error(cudaErrorInvalidValue);
  return list_nodes(graph->nodes, nodes, numNodes);
}
cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes,
                                  size_t *pNumRootNodes) {
  std::lock_guard<std::mutex> lock(gmu);
  if (!live_graph_locked(graph)) return set_error(cudaErrorInvalidValue);
  std::vector<cudaGraphNode_t> roots;
  for (cudaGraphNode_t n : graph->nodes)
    if (n->deps.empty()) roots.push_back(n);
  return list_nodes(roots, pRootNodes, pNumRootNodes);
}
cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                              cudaGraphEdgeData *edgeData, size_t *numEdges) {
  std::lock_guard<std::mutex> lock(gmu);
  if (!live_graph_locked(graph) || !numEdges) return set_error(cudaErrorInvalidValue);
  std::vector<std::pair<cudaGraphNode_t, cudaGraphNode_t>> edges;
  for (cudaGraphNode_t n : graph->nodes)
    for (cudaGraphNode_t d : n->deps) edges.push_back({d, n});
  if (!from && !to) {
    *numEdges = edges.size();
    return cudaSuccess;
  }
  if (!from || !to) return set_error(cudaErrorInvalidValue);
  for (size_t i = 0; i < *numEdges; ++i) {
    bool in = i < edges.size();
    from[i] = in ? edges[i].first : nullptr;
    to[i] = in ? edges[i].second : nullptr;
    if (edgeData) edgeData[i] = cudaGraphEdgeData{};
  }
  if (*numEdges > edges.size()) *numEdges = edges.size();
  return cudaSuccess;
}
cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                                         cudaGraphEdgeData *edgeData, size_t *pNumDependencies) {
  if (!node) return set_error(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(gmu);
  if (edgeData && pNumDependencies)
    for (size_t i = 0; i < *pNumDependencies; ++i) edgeData[i] = cudaGraphEdgeData{};
  return list_nodes(node->deps, pDependencies, pNumDependencies);
}
cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes,
                                           cudaGraphEdgeData *edgeData,
                                           size_t *pNumDependentNodes) {
  if (!node) return set_error(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(gmu);
  std::vector<cudaGraphNode_t> after;
  for (cudaGraphNode_t n : node->graph->nodes)
    if (std::find(n->deps.begin(), n->deps.end(), node) != n->deps.end()) after.push_back(n);
  if (edgeData && pNumDependentNodes)
    for (size_t i = 0; i < *pNumDependentNodes; ++i) edgeData[i] = cudaGraphEdgeData{};
  return list_nodes(after, pDependentNodes, pNumDependentNodes);
}
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                     const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData,
                                     size_t numDependencies) {
  std::lock_guard<std::mutex> lock(gmu);
  if (!live_graph_locked(graph) || (numDependencies && (!from || !to)))
    return set_error(cudaErrorInvalidValue);
  for (size_t i = 0; i < numDependencies; ++i) {
    if (edgeData && (edgeData[i].from_port || edgeData[i].to_port || edgeData[i].type))
      return not_simulated("cudaGraphAddDependencies", "edge data other than the default");
    if (!node_of(graph, from[i]) || !node_of(graph, to[i]) || from[i] == to[i])
      return set_error(cudaErrorInvalidValue);
    auto &deps = to[i]->deps;
    if (std::find(deps.begin(), deps.end(), from[i]) != deps.end())
      return set_error(cudaErrorInvalidValue); // that edge exists already
  }
  for (size_t i = 0; i < numDependencies; ++i) to[i]->deps.push_back(from[i]);
  return cudaSuccess;
}
cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                        const cudaGraphNode_t *to,
                                        const cudaGraphEdgeData *edgeData, size_t numDependencies) {
  (void)edgeData;
  std::lock_guard<std::mutex> lock(gmu);
  if (!live_graph_locked(graph) || (numDependencies && (!from || !to)))
    return set_error(cudaErrorInvalidValue);
  for (size_t i = 0; i < numDependencies; ++i) {
    if (!node_of(graph, to[i])) return set_error(cudaErrorInvalidValue);
    auto &deps = to[i]->deps;
    auto it = std::find(deps.begin(), deps.end(), from[i]);
    if (it == deps.end()) return set_error(cudaErrorInvalidValue);
    deps.erase(it);
  }
  return cudaSuccess;
}
cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node) {
  std::lock_guard<std::mutex> lock(gmu);
  if (!node || !live_graph_locked(node->graph)) return set_error(cudaErrorInvalidValue);
  cudaGraph_t g = node->graph;
  for (cudaGraphNode_t n : g->nodes)
    n->deps.erase(std::remove(n->deps.begin(), n->deps.end(), node), n->deps.end());
  g->nodes.erase(std::remove(g->nodes.begin(), g->nodes.end(), node), g->nodes.end());
  delete node->child;
  delete node;
  return cudaSuccess;
}
cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned int flags) {
  (void)flags;
  std::lock_guard<std::mutex> lock(gmu);
  if (!live_graph_locked(graph) || !path) return set_error(cudaErrorInvalidValue);
  FILE *f = std::fopen(path, "w");
  if (!f) return set_error(cudaErrorOperatingSystem);
  std::map<cudaGraphNode_t, size_t> id;
  std::fprintf(f, "digraph cuda_graph {\n");
  for (cudaGraphNode_t n : graph->nodes) {
    size_t i = id.size();
    id[n] = i;
    std::fprintf(f, "  n%zu [label=\"%s%s%s\"];\n", i, type_name(n->type),
                 n->kernel && n->kernel->name ? " " : "",
                 n->kernel && n->kernel->name ? n->kernel->name : "");
  }
  for (cudaGraphNode_t n : graph->nodes)
    for (cudaGraphNode_t d : n->deps) std::fprintf(f, "  n%zu -> n%zu;\n", id[d], id[n]);
  std::fprintf(f, "}\n");
  std::fclose(f);
  return cudaSuccess;
}

// ---- executable graphs ----

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                 unsigned long long flags) {
  return instantiate(pGraphExec, graph, flags, "cudaGraphInstantiate");
}
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                          unsigned long long flags) {
  return instantiate(pGraphExec, graph, flags, "cudaGraphInstantiateWithFlags");
}
cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long *flags) {
  std::lock_guard<std::mutex> lock(gmu);
  if (!flags || !execs.count(graphExec)) return set_error(cudaErrorInvalidValue);
  *flags = graphExec->flags;
  return cudaSuccess;
}
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaKernelNodeParams *pNodeParams) {
  std::shared_ptr<kernel_base> k;
  cudaError_t e = prepare_kernel("cudaGraphExecKernelNodeSetParams", pNodeParams, &k);
  if (e != cudaSuccess) return e;
  std::lock_guard<std::mutex> lock(gmu);
  cudaGraphNode_t n = exec_node_locked(hGraphExec, node);
  if (!n || n->type != cudaGraphNodeTypeKernel) return set_error(cudaErrorInvalidValue);
  n->kernel = k;
  n->op = nullptr;
  n->kparams = *pNodeParams;
  n->kparams.kernelParams = nullptr;
  return cudaSuccess;
}
cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaMemcpy3DParms *pNodeParams) {
  cudaError_t e = check_copy_params("cudaGraphExecMemcpyNodeSetParams", pNodeParams);
  if (e != cudaSuccess) return e;
  std::lock_guard<std::mutex> lock(gmu);
  cudaGraphNode_t n = exec_node_locked(hGraphExec, node);
  if (!n || n->type != cudaGraphNodeTypeMemcpy) return set_error(cudaErrorInvalidValue);
  n->op = nullptr;
  n->copy = *pNodeParams;
  return cudaSuccess;
}
cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                               void *dst, const void *src, size_t count,
                                               enum cudaMemcpyKind kind) {
  cudaMemcpy3DParms p = copy_1d(dst, src, count, kind);
  return cudaGraphExecMemcpyNodeSetParams(hGraphExec, node, &p);
}
cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaMemsetParams *pNodeParams) {
  cudaError_t e = check_set_params("cudaGraphExecMemsetNodeSetParams", pNodeParams);
  if (e != cudaSuccess) return e;
  std::lock_guard<std::mutex> lock(gmu);
  cudaGraphNode_t n = exec_node_locked(hGraphExec, node);
  if (!n || n->type != cudaGraphNodeTypeMemset) return set_error(cudaErrorInvalidValue);
  n->set = *pNodeParams;
  make_set_op(n);
  return cudaSuccess;
}
cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                           const struct cudaHostNodeParams *pNodeParams) {
  if (!pNodeParams || !pNodeParams->fn) return set_error(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(gmu);
  cudaGraphNode_t n = exec_node_locked(hGraphExec, node);
  if (!n || n->type != cudaGraphNodeTypeHost) return set_error(cudaErrorInvalidValue);
  n->host = *pNodeParams;
  return cudaSuccess;
}
// In place when the graph has the executable graph's shape: the same nodes (by creation order),
// of the same types, with the same dependencies. The executable graph then runs hGraph's nodes,
// as a new instantiation would.
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                cudaGraphExecUpdateResultInfo *resultInfo) {
  std::lock_guard<std::mutex> lock(gmu);
  if (!resultInfo || !execs.count(hGraphExec) || !live_graph_locked(hGraph))
    return set_error(cudaErrorInvalidValue);
  *resultInfo = cudaGraphExecUpdateResultInfo{cudaGraphExecUpdateSuccess, nullptr, nullptr};
  cudaGraph_t old = hGraphExec->graph;
  auto refuse = [&](cudaGraphExecUpdateResult r, cudaGraphNode_t at) {
    resultInfo->result = r;
    resultInfo->errorNode = at;
    return set_error(cudaErrorGraphExecUpdateFailure);
  };
  if (old->nodes.size() != hGraph->nodes.size())
    return refuse(cudaGraphExecUpdateErrorTopologyChanged, nullptr);
  std::map<cudaGraphNode_t, size_t> old_index, new_index;
  for (size_t i = 0; i < old->nodes.size(); ++i) {
    old_index[old->nodes[i]] = i;
    new_index[hGraph->nodes[i]] = i;
  }
  for (size_t i = 0; i < old->nodes.size(); ++i) {
    cudaGraphNode_t a = old->nodes[i], b = hGraph->nodes[i];
    if (a->type != b->type) return refuse(cudaGraphExecUpdateErrorNodeTypeChanged, b);
    if (a->type == cudaGraphNodeTypeGraph || a->type == cudaGraphNodeTypeEventRecord ||
        a->type == cudaGraphNodeTypeWaitEvent) {
      if (a->type != cudaGraphNodeTypeGraph && a->event != b->event)
        return refuse(cudaGraphExecUpdateErrorParametersChanged, b);
    }
    if (a->deps.size() != b->deps.size()) return refuse(cudaGraphExecUpdateErrorTopologyChanged, b);
    std::vector<size_t> da, db;
    for (cudaGraphNode_t d : a->deps) da.push_back(old_index[d]);
    for (cudaGraphNode_t d : b->deps) db.push_back(new_index[d]);
    std::sort(da.begin(), da.end());
    std::sort(db.begin(), db.end());
    if (da != db) return refuse(cudaGraphExecUpdateErrorTopologyChanged, b);
    if (a->type == cudaGraphNodeTypeKernel && a->kernel && b->kernel &&
        (a->kernel->name == nullptr) != (b->kernel->name == nullptr))
      return refuse(cudaGraphExecUpdateErrorFunctionChanged, b);
    if (a->type == cudaGraphNodeTypeKernel && a->kernel && b->kernel && a->kernel->name &&
        std::strcmp(a->kernel->name, b->kernel->name) != 0)
      return refuse(cudaGraphExecUpdateErrorFunctionChanged, b);
  }
  std::map<cudaGraphNode_t, cudaGraphNode_t> of;
  cudaGraph_t fresh = clone_graph(hGraph, &of);
  std::vector<cudaGraphNode_t> order;
  if (!topological(fresh, &order)) {
    delete fresh;
    return refuse(cudaGraphExecUpdateErrorTopologyChanged, nullptr);
  }
  // The nodes of the graph first instantiated keep naming their place (their copies by index).
  std::map<cudaGraphNode_t, cudaGraphNode_t> keep;
  for (auto &kv : hGraphExec->of) keep[kv.first] = fresh->nodes[old_index[kv.second]];
  for (auto &kv : of) keep[kv.first] = kv.second;
  hGraphExec->graph = fresh;
  hGraphExec->order = order;
  hGraphExec->branch = branches_of(order);
  hGraphExec->of = keep;
  delete old;
  return cudaSuccess;
}
cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream) {
  // Uploading prepares a launch on a GPU; here there is nothing to prepare, and nothing to order.
  std::lock_guard<std::mutex> lock(gmu);
  if (!execs.count(graphExec)) return set_error(cudaErrorInvalidValue);
  (void)stream;
  return cudaSuccess;
}
// A launch's memory nodes in the host's order: refused as a whole (one line, nothing queued) when
// an allocation from the last launch was never freed or a free finds nothing allocated; else
// each allocation and free is noted, and the footprint of what the launch allocates and frees.
static bool launch_memory(const std::vector<cudaGraphNode_t> &order, cudaStream_t stream) {
  std::set<graph_block *> allocated, freed;
  for (cudaGraphNode_t n : order) {
    graph_block *b = n->block.get();
    if (n->type == cudaGraphNodeTypeMemAlloc) {
      if (graph_block_allocated(b)) return graph_block_launch_alloc(b, "cudaGraphLaunch", false);
      allocated.insert(b);
    } else if (n->type == cudaGraphNodeTypeMemFree) {
      if (freed.count(b) || (!allocated.count(b) && !graph_block_allocated(b)))
        return graph_block_launch_free(b, "cudaGraphLaunch: its free node");
      freed.insert(b);
    }
  }
  size_t within = 0;
  for (cudaGraphNode_t n : order) {
    graph_block *b = n->block.get();
    if (n->type == cudaGraphNodeTypeMemAlloc) {
      graph_block_launch_alloc(b, "cudaGraphLaunch", freed.count(b) != 0);
      if (freed.count(b)) within += graph_block_size(b);
    } else if (n->type == cudaGraphNodeTypeMemFree) {
      graph_block_launch_free(b, "cudaGraphLaunch: its free node");
    }
  }
  graph_memory_launched(stream, within);
  return true;
}
cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream) {
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  if (sticky() != cudaSuccess) return set_error(sticky());
  std::vector<cudaGraphNode_t> order;
  std::vector<int> branch;
  cudaGraph_t g;
  bool into_capture;
  bool memory_nodes;
  std::vector<cudaGraphConditionalHandle> handles;
  {
    std::lock_guard<std::mutex> lock(gmu);
    if (!execs.count(graphExec)) return set_error(cudaErrorInvalidValue);
    order = graphExec->order;
    branch = graphExec->branch;
    g = graphExec->graph;
    into_capture = capture_of_locked(stream) != nullptr;
    memory_nodes = graphExec->has_memory_nodes;
    handles = graphExec->handles;
  }
  graph_memory_release_pending();
  if (memory_nodes && !into_capture && !launch_memory(order, stream))
    return set_error(cudaErrorInvalidValue);
  // At the launch's start (when it runs): each handle takes its default, or no value.
  auto at_start = [handles] {
    for (cudaGraphConditionalHandle h : handles) {
      cond_state *c = cond_of(h);
      bool assign = (c->flags & cudaGraphCondAssignDefault) != 0;
      c->value.store(assign ? c->default_value : 0);
      c->set.store(assign);
    }
  };
  // Launched into a capturing stream, the nodes join the capture one after another.
  cudaError_t e =
      into_capture ? run_graph(g, order, stream) : run_branches(order, branch, stream, at_start);
  return e != cudaSuccess ? e : set_error(sticky());
}
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec) {
  {
    std::lock_guard<std::mutex> lock(gmu);
    if (!execs.erase(graphExec)) return set_error(cudaErrorInvalidValue);
    for (cudaGraphConditionalHandle h : graphExec->handles) cond_of(h)->exec = nullptr;
    delete graphExec;
  }
  graph_memory_release_pending();
  return cudaSuccess;
}

// ---- stream capture ----

static cudaError_t begin_capture(const char *api, cudaStream_t stream, cudaGraph_t into,
                                 const cudaGraphNode_t *deps, const cudaGraphEdgeData *edge_data,
                                 size_t count, enum cudaStreamCaptureMode mode);
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode) {
  return begin_capture("cudaStreamBeginCapture", stream, nullptr, nullptr, nullptr, 0, mode);
}
cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                          const cudaGraphNode_t *dependencies,
                                          const cudaGraphEdgeData *dependencyData,
                                          size_t numDependencies, enum cudaStreamCaptureMode mode) {
  if (!graph) return set_error(cudaErrorInvalidValue);
  return begin_capture("cudaStreamBeginCaptureToGraph", stream, graph, dependencies, dependencyData,
                       numDependencies, mode);
}
cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                const cudaGraphEdgeData *dependencyData,
                                                size_t numDependencies, unsigned int flags) {
  if (flags > cudaStreamSetCaptureDependencies) return set_error(cudaErrorInvalidValue);
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  for (size_t i = 0; dependencyData && i < numDependencies; ++i)
    if (dependencyData[i].from_port || dependencyData[i].to_port || dependencyData[i].type)
      return not_simulated("cudaStreamUpdateCaptureDependencies",
                           "edge data other than the default");
  std::lock_guard<std::mutex> lock(gmu);
  capture *c = capture_of_locked(stream);
  if (!c) return set_error(cudaErrorIllegalState);
  if (!valid_deps_locked(c->graph, dependencies, numDependencies))
    return set_error(cudaErrorInvalidValue);
  std::vector<cudaGraphNode_t> &tips = c->tips[key(stream)];
  if (flags == cudaStreamSetCaptureDependencies) tips.clear();
  for (size_t i = 0; i < numDependencies; ++i)
    if (std::find(tips.begin(), tips.end(), dependencies[i]) == tips.end())
      tips.push_back(dependencies[i]);
  return cudaSuccess;
}
static cudaError_t begin_capture(const char *api, cudaStream_t stream, cudaGraph_t into,
                                 const cudaGraphNode_t *deps, const cudaGraphEdgeData *edge_data,
                                 size_t count, enum cudaStreamCaptureMode mode) {
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  for (size_t i = 0; edge_data && i < count; ++i)
    if (edge_data[i].from_port || edge_data[i].to_port || edge_data[i].type)
      return not_simulated(api, "edge data other than the default");
  if (key(stream) == nullptr) {
    report("%s: the legacy default stream cannot be captured (use a stream made with "
           "cudaStreamCreate)",
           api);
    return set_error(cudaErrorStreamCaptureUnsupported);
  }
  if ((int)mode < 0 || (int)mode > 2) return set_error(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(gmu);
  if (capture_of_locked(stream)) return set_error(cudaErrorIllegalState);
  if (into && (!live_graph_locked(into) || !valid_deps_locked(into, deps, count)))
    return set_error(cudaErrorInvalidValue);
  capture *c = kept_at_exit(new capture);
  c->id = next_capture_id++;
  c->graph = into ? into : kept_at_exit(new CUgraph_st);
  c->into_existing = into != nullptr;
  c->origin = key(stream);
  c->mode = mode;
  c->thread = std::this_thread::get_id();
  c->tips[key(stream)].assign(deps, deps + count);
  capturing[key(stream)] = c;
  captures_by_id[c->id] = c;
  captures_active.fetch_add(1);
  return cudaSuccess;
}
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph) {
  std::lock_guard<std::mutex> lock(gmu);
  capture *c = capture_of_locked(stream);
  if (!c) return set_error(cudaErrorIllegalState);
  // A capture into the program's graph (cudaStreamBeginCaptureToGraph) may pass no pointer.
  if (!pGraph && !c->into_existing) return set_error(cudaErrorInvalidValue);
  cudaGraph_t unused;
  if (!pGraph) pGraph = &unused;
  *pGraph = nullptr;
  cudaError_t e = cudaSuccess;
  if (c->origin != key(stream)) {
    report("cudaStreamEndCapture: the capture began on another stream "
           "(cudaErrorStreamCaptureUnmatched)");
    e = cudaErrorStreamCaptureUnmatched;
  } else if (c->invalidated) {
    e = cudaErrorStreamCaptureInvalidated;
  } else {
    // Every stream that joined must have joined back: its last nodes come before the origin's.
    std::set<cudaGraphNode_t> before;
    std::vector<cudaGraphNode_t> todo = c->tips[c->origin];
    while (!todo.empty()) {
      cudaGraphNode_t n = todo.back();
      todo.pop_back();
      if (before.insert(n).second)
        for (cudaGraphNode_t d : n->deps) todo.push_back(d);
    }
    for (auto &kv : c->tips)
      for (cudaGraphNode_t n : kv.second)
        if (!before.count(n)) e = cudaErrorStreamCaptureUnjoined;
    if (e != cudaSuccess)
      report("cudaStreamEndCapture: a stream that joined the capture has work the capturing "
             "stream does not wait for (cudaErrorStreamCaptureUnjoined; record an event there "
             "and make stream %p wait for it)",
             (void *)stream);
  }
  for (auto it = capturing.begin(); it != capturing.end();)
    it = it->second == c ? capturing.erase(it) : std::next(it);
  captures_by_id.erase(c->id);
  captures_active.fetch_sub(1);
  if (e == cudaSuccess) {
    if (!c->into_existing) graphs.insert(c->graph); // (a body graph stays its node's)
    *pGraph = c->graph;
  } else if (!c->into_existing) {
    delete c->graph;
  }
  delete c;
  return set_error(e);
}
cudaError_t cudaStreamIsCapturing(cudaStream_t stream,
                                  enum cudaStreamCaptureStatus *pCaptureStatus) {
  if (!pCaptureStatus) return set_error(cudaErrorInvalidValue);
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  std::lock_guard<std::mutex> lock(gmu);
  capture *c = capture_of_locked(stream);
  *pCaptureStatus = !c               ? cudaStreamCaptureStatusNone
                    : c->invalidated ? cudaStreamCaptureStatusInvalidated
                                     : cudaStreamCaptureStatusActive;
  return cudaSuccess;
}
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
                                     enum cudaStreamCaptureStatus *captureStatus_out,
                                     unsigned long long *id_out, cudaGraph_t *graph_out,
                                     const cudaGraphNode_t **dependencies_out,
                                     const cudaGraphEdgeData **edgeData_out,
                                     size_t *numDependencies_out) {
  if (!captureStatus_out) return set_error(cudaErrorInvalidValue);
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  std::lock_guard<std::mutex> lock(gmu);
  capture *c = capture_of_locked(stream);
  *captureStatus_out = !c               ? cudaStreamCaptureStatusNone
                       : c->invalidated ? cudaStreamCaptureStatusInvalidated
                                        : cudaStreamCaptureStatusActive;
  if (!c) return cudaSuccess;
  const std::vector<cudaGraphNode_t> &tips = c->tips[key(stream)];
  if (id_out) *id_out = c->id;
  if (graph_out) *graph_out = c->graph;
  if (dependencies_out) *dependencies_out = tips.data();
  if (edgeData_out) {
    if (zero_edges.size() < tips.size()) zero_edges.resize(tips.size());
    *edgeData_out = zero_edges.data();
  }
  if (numDependencies_out) *numDependencies_out = tips.size();
  return cudaSuccess;
}
cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode) {
  if (!mode || (int)*mode < 0 || (int)*mode > 2) return set_error(cudaErrorInvalidValue);
  std::swap(*mode, thread_capture_mode);
  return cudaSuccess;
}

// ---- graph memory nodes ----

static bool alloc_params_ok(const char *api, const cudaMemAllocNodeParams *p) {
  if (!p || p->bytesize == 0) {
    report("%s: the allocation's bytesize is 0 (or the parameters are null)", api);
    return false;
  }
  if (p->poolProps.allocType != cudaMemAllocationTypePinned ||
      p->poolProps.location.type != cudaMemLocationTypeDevice || p->poolProps.location.id != 0) {
    report("%s: poolProps must be cudaMemAllocationTypePinned memory on device 0 "
           "(cudaMemLocationTypeDevice)",
           api);
    return false;
  }
  return true;
}
cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                     struct cudaMemAllocNodeParams *nodeParams) {
  const char *api = "cudaGraphAddMemAllocNode";
  if (!alloc_params_ok(api, nodeParams)) return set_error(cudaErrorInvalidValue);
  std::shared_ptr<graph_block> b = graph_block_reserve(nodeParams->bytesize);
  if (!b) return set_error(cudaErrorMemoryAllocation);
  cudaError_t e = add_explicit(api, pGraphNode, graph, pDependencies, numDependencies,
                               cudaGraphNodeTypeMemAlloc, [&](cudaGraphNode_t n) {
                                 n->block = b;
                                 n->alloc = *nodeParams;
                                 n->alloc.dptr = graph_block_ptr(b.get());
                               });
  if (e == cudaSuccess) nodeParams->dptr = graph_block_ptr(b.get());
  return e;
}
cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node,
                                           struct cudaMemAllocNodeParams *params_out) {
  if (!node || !params_out || node->type != cudaGraphNodeTypeMemAlloc)
    return set_error(cudaErrorInvalidValue);
  *params_out = node->alloc;
  return cudaSuccess;
}
// A free node of graph memory p in graph g: CUDA refuses one that is not a graph allocation, and
// a second free node of it in the graph.
static bool free_node_ok_locked(const char *api, cudaGraph_t g, void *p,
                                std::shared_ptr<graph_block> *out) {
  *out = graph_block_at(p);
  if (!*out) {
    report("%s(%p): the pointer is not the start of graph memory (an allocation node's, or "
           "cudaMallocAsync's in a stream capture); free other memory with cudaFree",
           api, p);
    return false;
  }
  for (cudaGraphNode_t n : g->nodes)
    if (n->type == cudaGraphNodeTypeMemFree && n->block == *out) {
      report("%s(%p): the graph frees this allocation already (a second free node of it)", api, p);
      return false;
    }
  return true;
}
cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                    const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                    void *dptr) {
  const char *api = "cudaGraphAddMemFreeNode";
  std::shared_ptr<graph_block> b;
  {
    std::lock_guard<std::mutex> lock(gmu);
    if (!live_graph_locked(graph)) return set_error(cudaErrorInvalidValue);
    if (!free_node_ok_locked(api, graph, dptr, &b)) return set_error(cudaErrorInvalidValue);
  }
  return add_explicit(api, pGraphNode, graph, pDependencies, numDependencies,
                      cudaGraphNodeTypeMemFree, [&](cudaGraphNode_t n) { n->block = b; });
}
cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out) {
  if (!node || !dptr_out || node->type != cudaGraphNodeTypeMemFree)
    return set_error(cudaErrorInvalidValue);
  *(void **)dptr_out = graph_block_ptr(node->block.get());
  return cudaSuccess;
}

// ---- conditional nodes ----

cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle_out,
                                             cudaGraph_t graph, unsigned int defaultLaunchValue,
                                             unsigned int flags) {
  if (!pHandle_out || (flags & ~(unsigned)cudaGraphCondAssignDefault))
    return set_error(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(gmu);
  if (!live_graph_locked(graph)) return set_error(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> l2(cond_mu);
  conds.emplace_back();
  conds.back().graph = graph;
  conds.back().default_value = defaultLaunchValue;
  conds.back().flags = flags;
  *pHandle_out = conds.size();
  return cudaSuccess;
}

static cudaError_t add_conditional(cudaGraphNode_t *out, cudaGraph_t graph,
                                   const cudaGraphNode_t *deps, size_t count,
                                   cudaConditionalNodeParams *p) {
  const char *api = "cudaGraphAddNode";
  if (!cond_of(p->handle)) {
    report("%s: the conditional node's handle %llu was not made by "
           "cudaGraphConditionalHandleCreate",
           api, (unsigned long long)p->handle);
    return set_error(cudaErrorInvalidValue);
  }
  unsigned most = p->type == cudaGraphCondTypeIf       ? 2
                  : p->type == cudaGraphCondTypeWhile  ? 1
                  : p->type == cudaGraphCondTypeSwitch ? ~0u
                                                       : 0;
  if (p->size == 0 || p->size > most) {
    report("%s: a conditional node of this type has 1 body (WHILE), 1 or 2 (IF), or at least 1 "
           "(SWITCH), not %u",
           api, p->size);
    return set_error(cudaErrorInvalidValue);
  }
  std::vector<cudaGraph_t> bodies;
  for (unsigned i = 0; i < p->size; ++i) {
    cudaGraph_t b = kept_at_exit(new CUgraph_st);
    b->is_body = true;
    bodies.push_back(b);
  }
  cudaGraphNode_t made = nullptr;
  cudaError_t e = add_explicit(api, &made, graph, deps, count, cudaGraphNodeTypeConditional,
                               [&](cudaGraphNode_t n) {
                                 n->cond = p->handle;
                                 n->cond_type = p->type;
                                 n->bodies = bodies;
                                 for (cudaGraph_t b : bodies) body_graphs.insert(b);
                               });
  if (e != cudaSuccess) {
    for (cudaGraph_t b : bodies) delete b;
    return e;
  }
  *out = made;
  // CUDA's array, valid for the node's lifetime: the node's own list of bodies.
  p->phGraph_out = made->bodies.data();
  return cudaSuccess;
}

cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                             const cudaGraphNode_t *pDependencies,
                             const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                             struct cudaGraphNodeParams *nodeParams) {
  const char *api = "cudaGraphAddNode";
  if (!nodeParams || !pGraphNode) return set_error(cudaErrorInvalidValue);
  for (size_t i = 0; dependencyData && i < numDependencies; ++i)
    if (dependencyData[i].from_port || dependencyData[i].to_port || dependencyData[i].type)
      return not_simulated(api, "edge data other than the default");
  cudaGraphNodeParams &p = *nodeParams;
  const cudaGraphNode_t *d = pDependencies;
  size_t n = numDependencies;
  switch (p.type) {
  case cudaGraphNodeTypeKernel: {
    cudaKernelNodeParams k{p.kernel.func,           p.kernel.gridDim,      p.kernel.blockDim,
                           p.kernel.sharedMemBytes, p.kernel.kernelParams, p.kernel.extra};
    return cudaGraphAddKernelNode(pGraphNode, graph, d, n, &k);
  }
  case cudaGraphNodeTypeMemcpy:
    return cudaGraphAddMemcpyNode(pGraphNode, graph, d, n, &p.memcpy.copyParams);
  case cudaGraphNodeTypeMemset: {
    cudaMemsetParams s{p.memset.dst,         p.memset.pitch, p.memset.value,
                       p.memset.elementSize, p.memset.width, p.memset.height};
    return cudaGraphAddMemsetNode(pGraphNode, graph, d, n, &s);
  }
  case cudaGraphNodeTypeHost: {
    cudaHostNodeParams h{p.host.fn, p.host.userData};
    return cudaGraphAddHostNode(pGraphNode, graph, d, n, &h);
  }
  case cudaGraphNodeTypeGraph:
    if (p.graph.ownership != cudaGraphChildGraphOwnershipClone)
      return not_simulated(api,
                           "a child graph moved into its node (cudaGraphChildGraphOwnershipMove)");
    return cudaGraphAddChildGraphNode(pGraphNode, graph, d, n, p.graph.graph);
  case cudaGraphNodeTypeEmpty:
    return cudaGraphAddEmptyNode(pGraphNode, graph, d, n);
  case cudaGraphNodeTypeEventRecord:
    return cudaGraphAddEventRecordNode(pGraphNode, graph, d, n, p.eventRecord.event);
  case cudaGraphNodeTypeWaitEvent:
    return cudaGraphAddEventWaitNode(pGraphNode, graph, d, n, p.eventWait.event);
  case cudaGraphNodeTypeMemAlloc: {
    cudaMemAllocNodeParams a{p.alloc.poolProps, p.alloc.accessDescs, p.alloc.accessDescCount,
                             p.alloc.bytesize, nullptr};
    cudaError_t e = cudaGraphAddMemAllocNode(pGraphNode, graph, d, n, &a);
    if (e == cudaSuccess) p.alloc.dptr = a.dptr;
    return e;
  }
  case cudaGraphNodeTypeMemFree:
    return cudaGraphAddMemFreeNode(pGraphNode, graph, d, n, p.free.dptr);
  case cudaGraphNodeTypeConditional:
    return add_conditional(pGraphNode, graph, d, n, &p.conditional);
  default:
    return not_simulated(api, "a node of this type (external semaphores)");
  }
}

void cusim_graph_set_conditional(cudaGraphConditionalHandle handle, unsigned int value) {
  cond_state *c = cond_of(handle);
  if (!c) {
    char text[200];
    std::snprintf(text, sizeof text,
                  "cudaGraphSetConditional: handle %llu was not made by "
                  "cudaGraphConditionalHandleCreate",
                  (unsigned long long)handle);
    fail_running_block(cudaErrorLaunchFailure, text);
  }
  c->value.store(value);
  c->set.store(true);
}

} // extern "C"

// ---- cudaMallocAsync and cudaFreeAsync in a stream capture: memory nodes ----
namespace cusim {
namespace rt {
bool capture_mem_alloc(cudaStream_t stream, size_t size, void **ptr, cudaError_t *status) {
  {
    std::lock_guard<std::mutex> lock(gmu);
    if (!capture_of_locked(stream)) return false;
  }
  std::shared_ptr<graph_block> b = size ? graph_block_reserve(size) : nullptr;
  std::lock_guard<std::mutex> lock(gmu);
  capture *c = capture_of_locked(stream);
  if (!c) return false; // (ended meanwhile, on another thread)
  if (!b) {
    *status = size ? cudaErrorMemoryAllocation : cudaErrorInvalidValue;
    return true;
  }
  cudaGraphNode_t n = capture_node_locked(c, stream, cudaGraphNodeTypeMemAlloc);
  n->block = b;
  n->alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  n->alloc.poolProps.location.type = cudaMemLocationTypeDevice;
  n->alloc.bytesize = size;
  n->alloc.dptr = graph_block_ptr(b.get());
  *ptr = n->alloc.dptr;
  *status = cudaSuccess;
  return true;
}
bool capture_mem_free(cudaStream_t stream, void *ptr, cudaError_t *status) {
  std::lock_guard<std::mutex> lock(gmu);
  capture *c = capture_of_locked(stream);
  if (!c) return false;
  std::shared_ptr<graph_block> b;
  if (!graph_block_at(ptr)) {
    report("cudaFreeAsync on a stream that is being captured into a CUDA graph, of memory no "
           "graph allocated (a free node of it), is not simulated; the capture is invalidated");
    invalidate_locked(c);
    *status = cudaErrorStreamCaptureUnsupported;
    return true;
  }
  if (!free_node_ok_locked("cudaFreeAsync", c->graph, ptr, &b)) {
    invalidate_locked(c);
    *status = cudaErrorInvalidValue;
    return true;
  }
  cudaGraphNode_t n = capture_node_locked(c, stream, cudaGraphNodeTypeMemFree);
  n->block = b;
  *status = cudaSuccess;
  return true;
}
} // namespace rt
} // namespace cusim

CUgraph_st::~CUgraph_st() {
  if (is_body) body_graphs.erase(this);
  destroy_nodes();
}
