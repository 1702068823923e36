// The runtime API's streams and events: handles, synchronization, queries, host functions,
// event records and elapsed times. Their queues and ordering are in streams.cpp.
#include "api_state.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>

namespace cusim {
namespace rt {
namespace api {
std::set<cudaStream_t> streams;
std::set<cudaEvent_t> events;

// A device-wide wait (cudaDeviceSynchronize, cudaFree): every stream runs to its end.
void sync_all() {
  run_queue();
  after_sync();
}

// A blocking call on the legacy default stream (cudaMemcpy, cudaMemset): it waits for the
// blocking streams' earlier work, not for cudaStreamNonBlocking streams.
void sync_blocking() {
  if (captures_active.load() != 0 && !zero_is_per_thread())
    capture_refuses_legacy("a call on the legacy default stream (cudaMemcpy, cudaMemset...)");
  sync_legacy();
  after_sync();
}
} // namespace api

namespace {
// cudaStreamSetAttribute's values, by stream and attribute (under mu); a destroyed stream's go.
std::map<std::pair<cudaStream_t, int>, cudaLaunchAttributeValue> stream_attributes;
} // namespace

namespace {
uint64_t now_ns() {
  return (uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

} // namespace

bool valid_stream(cudaStream_t s) {
  if (s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread) return true;
  std::lock_guard<std::mutex> lock(mu);
  return streams.count(s) != 0;
}

} // namespace rt
} // namespace cusim

using namespace cusim::rt;
using cusim::rt::set_error;

extern "C" {

// ---- streams ----

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority) {
  creation_site here(__builtin_return_address(0));
  if (!pStream || flags > 1) return set_error(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(mu);
  CUSIM_CHECK_STICKY();
  cudaStream_t s = new CUstream_st{flags, priority};
#if defined(CUSIM_ASAN)
  __lsan_ignore_object(s); // as on a GPU, an undestroyed stream goes away with the process
#endif
  streams.insert(s);
  stream_created(s, flags);
  resource_created(resource::stream, s);
  *pStream = s;
  return cudaSuccess;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags) {
  creation_site here(__builtin_return_address(0));
  return cudaStreamCreateWithPriority(pStream, flags, 0);
}
cudaError_t cudaStreamCreate(cudaStream_t *pStream) {
  creation_site here(__builtin_return_address(0));
  return cudaStreamCreateWithPriority(pStream, 0, 0);
}
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  if (stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread)
    return set_error(cudaErrorInvalidResourceHandle);
  std::lock_guard<std::mutex> lock(mu);
  if (!streams.erase(stream)) {
    report("cudaStreamDestroy(%p): not a live stream (destroyed twice?)", (void *)stream);
    return set_error(cudaErrorInvalidResourceHandle);
  }
  stream_attributes.erase({stream, (int)cudaLaunchAttributeAccessPolicyWindow});
  stream_attributes.erase({stream, (int)cudaLaunchAttributeSynchronizationPolicy});
  stream_attributes.erase({stream, (int)cudaLaunchAttributePriority});
  // Work already queued on it still runs (CUDA finishes it); the handle is freed now.
  if (captures_active.load() != 0) capture_stream_destroyed(stream);
  stream_destroyed(stream);
  resource_released(stream);
  delete stream;
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  cudaError_t refused;
  if (captures_active.load() != 0 &&
      capture_refuses_sync("cudaStreamSynchronize", stream, false, &refused))
    return set_error(refused);
  sync_stream(stream);
  after_sync();
  return set_error(sticky());
}
cudaError_t cudaStreamQuery(cudaStream_t stream) {
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  cudaError_t refused;
  if (captures_active.load() != 0 &&
      capture_refuses_sync("cudaStreamQuery", stream, false, &refused))
    return set_error(refused);
  cudaError_t e = query_stream(stream);
  if (sticky() != cudaSuccess) return set_error(sticky());
  return e;
}
// Which streams may touch managed memory: every simulated thread sees the host's memory, so the
// attachment changes nothing here; its arguments are checked as CUDA checks them.
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t,
                                     unsigned int flags) {
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  if (devPtr == nullptr ||
      (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost && flags != cudaMemAttachSingle))
    return set_error(cudaErrorInvalidValue);
  if (flags == cudaMemAttachSingle && (stream == nullptr || stream == cudaStreamLegacy))
    return set_error(cudaErrorInvalidValue); // attached singly to the NULL stream: illegal
  return cudaSuccess;
}
// Stream attributes: kept and checked as CUDA checks them; the simulator has no L2 cache for an
// access policy window to change, nor a scheduler for a priority or a synchronization policy.
cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID attr,
                                   const cudaStreamAttrValue *value) {
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  if (value == nullptr) return set_error(cudaErrorInvalidValue);
  if (attr == cudaLaunchAttributeAccessPolicyWindow) {
    const cudaAccessPolicyWindow &w = value->accessPolicyWindow;
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    bool property_ok =
        w.hitProp >= cudaAccessPropertyNormal && w.hitProp <= cudaAccessPropertyPersisting &&
        w.missProp >= cudaAccessPropertyNormal && w.missProp <= cudaAccessPropertyPersisting;
    if (w.num_bytes > (size_t)p.accessPolicyMaxWindowSize || !property_ok)
      return set_error(cudaErrorInvalidValue);
  } else if (attr == cudaLaunchAttributeSynchronizationPolicy) {
    if (value->syncPolicy < cudaSyncPolicyAuto || value->syncPolicy > cudaSyncPolicyBlockingSync)
      return set_error(cudaErrorInvalidValue);
  } else if (attr != cudaLaunchAttributePriority) {
    return set_error(cudaErrorInvalidValue);
  }
  std::lock_guard<std::mutex> lock(mu);
  stream_attributes[{stream, (int)attr}] = *value;
  return cudaSuccess;
}
cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID attr,
                                   cudaStreamAttrValue *value_out) {
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  if (value_out == nullptr ||
      (attr != cudaLaunchAttributeAccessPolicyWindow &&
       attr != cudaLaunchAttributeSynchronizationPolicy && attr != cudaLaunchAttributePriority))
    return set_error(cudaErrorInvalidValue);
  std::memset(value_out, 0, sizeof *value_out);
  if (attr == cudaLaunchAttributeSynchronizationPolicy) value_out->syncPolicy = cudaSyncPolicyAuto;
  if (attr == cudaLaunchAttributePriority) cudaStreamGetPriority(stream, &value_out->priority);
  std::lock_guard<std::mutex> lock(mu);
  auto found = stream_attributes.find({stream, (int)attr});
  if (found != stream_attributes.end()) *value_out = found->second;
  return cudaSuccess;
}
cudaError_t cudaCtxResetPersistingL2Cache(void) {
  return cudaSuccess;
}
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int) {
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  cudaError_t captured;
  if (captures_active.load() != 0 && capture_stream_wait(stream, event, &captured))
    return set_error(captured);
  std::lock_guard<std::mutex> lock(mu);
  if (!events.count(event)) return set_error(cudaErrorInvalidResourceHandle);
  wait_event(stream, event); // later work on the stream comes after the record
  return cudaSuccess;
}
cudaError_t cudaStreamGetPriority(cudaStream_t s, int *priority) {
  if (!priority || !valid_stream(s)) return set_error(cudaErrorInvalidValue);
  *priority = (s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread) ? 0 : s->priority;
  return cudaSuccess;
}
cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned int *flags) {
  if (!flags || !valid_stream(s)) return set_error(cudaErrorInvalidValue);
  *flags = (s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread) ? 0 : s->flags;
  return cudaSuccess;
}
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData) {
  if (!fn) return set_error(cudaErrorInvalidValue);
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  cudaError_t captured;
  if (captures_active.load() != 0 && capture_host_function(stream, fn, userData, &captured))
    return set_error(captured);
  host_function_queued(enqueue(stream, [fn, userData] { // fires without a host wait (issue 18)
    if (sticky() == cudaSuccess) fn(userData);
  }));
  return cudaSuccess;
}
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                  void *userData, unsigned int flags) {
  if (!callback || flags != 0) return set_error(cudaErrorInvalidValue);
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  cudaError_t refused;
  if (captures_active.load() != 0 &&
      capture_refuses_sync("cudaStreamAddCallback", stream, false, &refused))
    return set_error(refused);
  host_function_queued(enqueue( // fires without a host wait (issue 18)
      stream, [stream, callback, userData] { callback(stream, sticky(), userData); }));
  return cudaSuccess;
}

// ---- events ----

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags) {
  creation_site here(__builtin_return_address(0));
  if (!event || (flags & ~0x7u)) return set_error(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(mu);
  CUSIM_CHECK_STICKY();
  cudaEvent_t e = new CUevent_st{flags, false, false, 0};
#if defined(CUSIM_ASAN)
  __lsan_ignore_object(e); // as on a GPU, an undestroyed event goes away with the process
#endif
  events.insert(e);
  resource_created(resource::event, e);
  *event = e;
  return cudaSuccess;
}
cudaError_t cudaEventCreate(cudaEvent_t *event) {
  creation_site here(__builtin_return_address(0));
  return cudaEventCreateWithFlags(event, 0);
}
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int) {
  if (!valid_stream(stream)) return set_error(cudaErrorInvalidResourceHandle);
  cudaError_t captured;
  if (captures_active.load() != 0 && capture_event_record(event, stream, &captured))
    return set_error(captured);
  std::lock_guard<std::mutex> lock(mu);
  CUSIM_CHECK_STICKY();
  if (!events.count(event)) {
    report("cudaEventRecord(%p): not a live event (created with cudaEventCreate?)", (void *)event);
    return set_error(cudaErrorInvalidResourceHandle);
  }
  event->recorded = true;
  event->completed = false;
  // The timestamp is taken when the queue reaches the record, so that events time the work.
  event_recorded(event, enqueue(stream, [event] {
                   std::lock_guard<std::mutex> l2(mu);
                   if (events.count(event)) {
                     event->ns = now_ns();
                     event->completed = true;
                   }
                 }));
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  return cudaEventRecordWithFlags(event, stream, 0);
}
cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  {
    std::lock_guard<std::mutex> lock(mu);
    if (!events.count(event)) return set_error(cudaErrorInvalidResourceHandle);
  }
  cudaError_t captured;
  if (captures_active.load() != 0 &&
      capture_event_refused("cudaEventSynchronize", event, &captured))
    return set_error(captured);
  sync_event(event);
  after_sync();
  return set_error(sticky());
}
cudaError_t cudaEventQuery(cudaEvent_t event) {
  {
    std::lock_guard<std::mutex> lock(mu);
    if (!events.count(event)) return set_error(cudaErrorInvalidResourceHandle);
  }
  cudaError_t captured;
  if (captures_active.load() != 0 && capture_event_refused("cudaEventQuery", event, &captured))
    return set_error(captured);
  cudaError_t e = query_event(event);
  if (sticky() != cudaSuccess) return set_error(sticky());
  return e;
}
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms) return set_error(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(mu);
  CUSIM_CHECK_STICKY();
  if (!events.count(start) || !events.count(end)) return set_error(cudaErrorInvalidResourceHandle);
  if ((start->flags | end->flags) & cudaEventDisableTiming)
    return set_error(cudaErrorInvalidResourceHandle);
  if (!start->recorded || !end->recorded) return set_error(cudaErrorInvalidResourceHandle);
  if (!start->completed || !end->completed) return set_error(cudaErrorNotReady);
  *ms = (float)((double)((int64_t)end->ns - (int64_t)start->ns) / 1e6);
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  std::lock_guard<std::mutex> lock(mu);
  if (!events.erase(event)) {
    report("cudaEventDestroy(%p): not a live event (destroyed twice?)", (void *)event);
    return set_error(cudaErrorInvalidResourceHandle);
  }
  // A record still in the queue checks events before touching it, so the event can go now.
  event_forgotten(event);
  capture_event_forgotten(event);
  resource_released(event);
  delete event;
  return cudaSuccess;
}

} // extern "C"
