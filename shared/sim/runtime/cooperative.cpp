// Cooperative launches: cudaLaunchCooperativeKernel and cooperative_groups' grid.sync().
//
// A GPU runs a cooperative grid only if every block can be resident at once, and grid.sync() is a
// barrier of all its blocks. The simulator does the same: the scheduler gives each block of a
// cooperative launch a worker thread of its own (run_kernel, scheduler.cpp), so all blocks run at
// once, and grid.sync() is a block barrier, then a barrier of those workers (thread 0 of each
// block waits here for the others), then a block barrier again. Blocks on their own threads also
// see each other's writes as a GPU's do, so flags and atomics between blocks work.
#include "cuda_runtime.h"
#include "internal.hpp"

#include <condition_variable>
#include <cstdio>
#include <mutex>

namespace cusim {
namespace rt {

struct grid_barrier {
  std::mutex mu;
  std::condition_variable cv;
  uint64_t blocks = 0;     // workers of the launch: one per block
  uint64_t arrived = 0;    // blocks waiting at the grid barrier now
  uint64_t generation = 0; // grid barriers crossed
  uint64_t done = 0;       // workers with no block left (their block returned, or none came)
  const std::atomic<bool> *failed = nullptr; // the launch has an execution error
  const char *file = nullptr;                // where the first waiting block called grid.sync()
  int line = 0;
};

namespace {
thread_local bool cooperative_request = false;
} // namespace

grid_barrier *grid_barrier_create(uint64_t blocks, const std::atomic<bool> *failed) {
  grid_barrier *g = new grid_barrier;
  g->blocks = blocks;
  g->failed = failed;
  return g;
}

void grid_barrier_destroy(grid_barrier *g) {
  delete g;
}

void grid_worker_done(grid_barrier *g) {
  std::lock_guard<std::mutex> lock(g->mu);
  g->done++;
  g->cv.notify_all();
}

bool cooperative_launch_requested() {
  return cooperative_request;
}

namespace {

std::string where_running() {
  running_context c;
  char buf[512];
  if (!current_context(0, &c)) return "a kernel";
  std::snprintf(buf, sizeof buf, "kernel '%s' (launched at %s:%d), block (%u,%u,%u)", c.kernel,
                base_name(c.file), c.line, c.block.x, c.block.y, c.block.z);
  return buf;
}

// Thread 0 of a block whose threads all reached grid.sync(): waits for the other blocks.
void wait_for_grid(grid_barrier *g, const char *file, int line) {
  std::unique_lock<std::mutex> lock(g->mu);
  uint64_t generation = g->generation;
  if (g->arrived == 0) {
    g->file = file;
    g->line = line;
  }
  checker_flush_worker(); // what this block touched so far is ordered before what comes after
  if (++g->arrived == g->blocks) {
    checker_launch_begin(); // every block waits here: all accesses before are ordered
    g->arrived = 0;
    g->generation++;
    g->cv.notify_all();
    return;
  }
  for (;;) {
    if (g->generation != generation) return;
    if (g->failed->load()) { // another block failed: this one ends quietly (its error is printed)
      lock.unlock();
      fail_running_block(cudaErrorLaunchFailure, "");
    }
    // Every worker waits here or has finished: the blocks that finished never reach the barrier.
    // On a GPU the grid hangs.
    if (g->arrived + g->done == g->blocks) {
      // Every block that sees it says it: the first to end the launch prints its message
      // (abort_block prints one), so the message cannot be lost to a block that ends the launch
      // first in silence.
      char buf[1024];
      std::snprintf(buf, sizeof buf,
                    "grid.sync() deadlock in %s: %llu of %llu blocks wait at grid.sync() at "
                    "%s, the others returned without reaching it (a GPU hangs)",
                    where_running().c_str(), (unsigned long long)g->arrived,
                    (unsigned long long)g->blocks, place(g->file, g->line).c_str());
      lock.unlock();
      fail_running_block(cudaErrorLaunchTimeout, buf);
    }
    g->cv.wait(lock);
  }
}

} // namespace
} // namespace rt

namespace dev {

void grid_sync(const char *file, int line) {
  if (cusim_tls.blk == nullptr) return; // called outside a kernel: nothing to wait for
  rt::grid_barrier *g = rt::running_grid();
  if (g == nullptr) {
    // CUDA's grid_group::sync() traps when the grid was not launched cooperatively.
    char buf[1024];
    std::snprintf(buf, sizeof buf,
                  "grid.sync() needs cudaLaunchCooperativeKernel: %s calls it at %s but was "
                  "launched with <<< >>> or cudaLaunchKernel (on a GPU it traps)",
                  rt::where_running().c_str(), rt::place(file, line).c_str());
    rt::fail_running_block(cudaErrorLaunchFailure, buf);
  }
  sync_block(file, line); // every thread of the block is here (or a divergence is reported)
  if (cusim_tls.tid == 0) rt::wait_for_grid(g, file, line);
  sync_block(file, line); // the rest of the block waits for thread 0
}

bool grid_is_valid() {
  return cusim_tls.blk != nullptr && rt::running_grid() != nullptr;
}

} // namespace dev

cudaError_t launch_cooperative(const char *file, int line, const void *func, dim3 grid, dim3 block,
                               void **args, size_t shared, cudaStream_t stream) {
  if (rt::sticky() != cudaSuccess) return rt::set_error(rt::sticky());
  unsigned long long threads = (unsigned long long)block.x * block.y * block.z;
  unsigned long long blocks = (unsigned long long)grid.x * grid.y * grid.z;
  // A configuration that is invalid anyway is refused by the launch as such
  // (cudaErrorInvalidValue: its shape, its dynamic shared memory, its __launch_bounds__).
  char why[320];
  bool valid = rt::launch_shape_problem(grid, block, shared, registered_kernel_name(func), why,
                                        sizeof why, func) == 0;
  if (valid) {
    int per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, func, (int)threads, shared);
    unsigned long long sms = (unsigned long long)rt::worker_count();
    if (blocks > (unsigned long long)per_sm * sms) {
      rt::report("%s:%d: cudaLaunchCooperativeKernel: %llu blocks of %llu threads cannot all be "
                 "resident: the simulated device holds %llu (%llu SMs x %d; size the grid with "
                 "cudaOccupancyMaxActiveBlocksPerMultiprocessor x multiProcessorCount)",
                 rt::base_name(file), line, blocks, threads, (unsigned long long)per_sm * sms, sms,
                 per_sm);
      return rt::set_error(cudaErrorCooperativeLaunchTooLarge);
    }
  }
  rt::cooperative_request = true;
  cudaError_t e = launch_registered(file, line, func, grid, block, args, shared, stream);
  rt::cooperative_request = false;
  return e;
}

} // namespace cusim
