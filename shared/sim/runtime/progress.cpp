// The stream progress thread: host functions on streams (cudaLaunchHostFunc,
// cudaStreamAddCallback) fire in stream order without the host synchronizing.
//
// Streams run lazily (streams.cpp): work runs when the host waits for it. A host function is
// the one operation whose effect the host may watch by other means than a CUDA call (a flag it
// spins on, a condition variable), so each one queued wakes this thread, which runs its stream
// up to and including it, with whatever that depends on, exactly as a wait would, but without
// telling the host that the work is complete (the host's view still changes only at its own
// synchronizing calls, so the stream-race check is unchanged). The work before a host function
// therefore runs soon after it is queued, on this thread; other streams stay lazy.
#include "internal.hpp"

#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <thread>

namespace cusim {
namespace rt {
namespace {

struct progress_state {
  std::mutex mu;
  std::condition_variable wake, idle;
  std::deque<point> todo;
  bool started = false, busy = false, stopping = false;
  std::thread::id id; // the progress thread's
};
// Never destroyed: the detached thread may still look at it while the process exits.
progress_state &state = *new progress_state;

void progress_main() {
  std::unique_lock<std::mutex> lock(state.mu);
  for (;;) {
    state.wake.wait(lock, [] { return state.stopping || !state.todo.empty(); });
    if (state.stopping) break;
    point p = state.todo.front();
    state.todo.pop_front();
    state.busy = true;
    lock.unlock();
    run_in_background(p);
    lock.lock();
    state.busy = false;
    state.idle.notify_all();
  }
  state.busy = false;
  state.idle.notify_all();
}

// At exit the thread starts nothing new and the exit waits for what it runs now (a kernel
// half run must not see the process's statics destroyed under it).
void stop_progress() {
  if (std::this_thread::get_id() == state.id) return; // exit() called by a host function
  std::unique_lock<std::mutex> lock(state.mu);
  state.stopping = true;
  state.wake.notify_all();
  state.idle.wait(lock, [] { return !state.busy; });
}

} // namespace

void host_function_queued(const point &p) {
  std::lock_guard<std::mutex> lock(state.mu);
  if (state.stopping) return;
  if (!state.started) {
    state.started = true;
    std::thread worker(progress_main);
    state.id = worker.get_id();
    worker.detach();
    std::atexit(stop_progress);
  }
  state.todo.push_back(p);
  state.wake.notify_one();
}

} // namespace rt
} // namespace cusim
