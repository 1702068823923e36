/* Lesson 10 driver: checks what your code computes in pool memory and what the pool's own
 * bookkeeping says about it, then times the ways of getting memory on the GPU. You do not need
 * to edit this file. */
#define _POSIX_C_SOURCE 199309L /* nanosleep */
#include "lesson.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const wb_program program = {
    .program = "10-memory-pools",
    .summary = "the cost of device memory: cudaMalloc, the stream pool, copies",
    .default_n = 100000000,
    .sim_default_n = 10000000,
    .min_n = 1,
    .max_n = 1LL << 30,
    .n_meaning = "number of ints, 4 bytes each",
    .default_repeat = 5,
};

enum { steps = 8, pairs = 1000 };
static const size_t pair_bytes = 1 << 20; /* one small temporary in the per-pair timing */

/* blocks_for() in exercise.cu caps the grid at 4096 blocks of 256 threads: an arange kernel
 * without a grid-stride loop leaves everything past 1,048,576 ints unwritten. */
enum { past_the_grid = 4096 * 256 + 7 };

/* Check 1 at past_the_grid ints, whatever --n is: how many elements of x come out wrong. */
static size_t arange_past_the_grid(cudaStream_t stream) {
  size_t count = past_the_grid, wrong = 0;
  int *d_data = NULL, *data = malloc(count * sizeof(int));
  if (!data) return 0; /* the check is skipped rather than failed */
  CUDA_CHECK(cudaMalloc((void **)&d_data, count * sizeof(int)));
  /* on `stream`: a cudaMemset goes to the legacy default stream, which does not wait for a
   * non-blocking stream nor it for it, so the kernel could run before the memset ends */
  CUDA_CHECK(cudaMemsetAsync(d_data, 0xFF, count * sizeof(int), stream));
  CUDA_CHECK(arange_on_device(d_data, count, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  CUDA_CHECK(cudaMemcpy(data, d_data, count * sizeof(int), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < count; ++i) wrong += data[i] != (int)i;
  CUDA_CHECK(cudaFree(d_data));
  free(data);
  if (wrong)
    wb_print_wrapped(stdout, "  ",
                     "  x of %d ints, more than the 4096 blocks of 256 threads blocks_for() "
                     "launches: %zu elements wrong. Does arange_kernel's loop step by the whole "
                     "grid, gridDim.x * blockDim.x?\n",
                     past_the_grid, wrong);
  return wrong;
}

/* ---- The pool's bookkeeping ------------------------------------------------------------------ */

typedef struct {
  unsigned long long reserved, used, reserved_high, used_high, threshold;
} pool_state;

static unsigned long long pool_attribute(cudaMemPool_t pool, enum cudaMemPoolAttr attribute) {
  unsigned long long value = 0; /* every attribute read here is a 64-bit unsigned integer */
  CUDA_CHECK(cudaMemPoolGetAttribute(pool, attribute, &value));
  return value;
}

static pool_state read_pool(cudaMemPool_t pool) {
  pool_state s;
  s.reserved = pool_attribute(pool, cudaMemPoolAttrReservedMemCurrent);
  s.used = pool_attribute(pool, cudaMemPoolAttrUsedMemCurrent);
  s.reserved_high = pool_attribute(pool, cudaMemPoolAttrReservedMemHigh);
  s.used_high = pool_attribute(pool, cudaMemPoolAttrUsedMemHigh);
  s.threshold = pool_attribute(pool, cudaMemPoolAttrReleaseThreshold);
  return s;
}

/* One row of the pool table: what CuPy's mempool.total_bytes() and used_bytes() tell, and more. */
static pool_state show_pool(const wb_args *args, cudaMemPool_t pool, const char *when) {
  pool_state s = read_pool(pool);
  wb_info(args, "  %-31s %10llu %10llu %10llu %10llu\n", when, s.reserved, s.used, s.reserved_high,
          s.used_high);
  return s;
}

/* ---- Timed work: each call gets the memory, uses it, gives it back and waits, like one loop of
 * the Python original's %timeit (which dropped each array before making the next).
 * ----------------------- */

typedef struct {
  size_t n, bytes;
  const int *host;
  int *d_buffer, *d_x, *d_acc;
  cudaStream_t stream;
} timing_context;

static void copy_from_host(void *context) {
  timing_context *c = context;
  int *d_data = NULL;
  CUDA_CHECK(cudaMalloc((void **)&d_data, c->bytes));
  CUDA_CHECK(cudaMemcpy(d_data, c->host, c->bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaFree(d_data));
}

static void malloc_empty(void *context) {
  timing_context *c = context;
  int *d_data = NULL;
  CUDA_CHECK(cudaMalloc((void **)&d_data, c->bytes));
  CUDA_CHECK(cudaFree(d_data));
}

static void pool_empty(void *context) {
  timing_context *c = context;
  int *d_data = NULL;
  CUDA_CHECK(cudaMallocAsync((void **)&d_data, c->bytes, c->stream));
  CUDA_CHECK(cudaFreeAsync(d_data, c->stream));
  CUDA_CHECK(cudaStreamSynchronize(c->stream));
}

static void pool_and_fill(void *context) {
  timing_context *c = context;
  int *d_data = NULL;
  CUDA_CHECK(cudaMallocAsync((void **)&d_data, c->bytes, c->stream));
  CUDA_CHECK(arange_on_device(d_data, c->n, c->stream));
  CUDA_CHECK(cudaFreeAsync(d_data, c->stream));
  CUDA_CHECK(cudaStreamSynchronize(c->stream)); /* the data exists only once the kernel is done */
}

static void fill_launch_only(void *context) { /* the Python original's mistake: nothing waits */
  timing_context *c = context;
  CUDA_CHECK(arange_on_device(c->d_buffer, c->n, c->stream));
}

static void malloc_pairs(void *context) {
  (void)context;
  for (int i = 0; i < pairs; ++i) {
    void *d_tmp = NULL;
    CUDA_CHECK(cudaMalloc(&d_tmp, pair_bytes));
    CUDA_CHECK(cudaFree(d_tmp));
  }
}

static void pool_pairs(void *context) {
  timing_context *c = context;
  for (int i = 0; i < pairs; ++i) {
    void *d_tmp = NULL;
    CUDA_CHECK(cudaMallocAsync(&d_tmp, pair_bytes, c->stream));
    CUDA_CHECK(cudaFreeAsync(d_tmp, c->stream));
  }
  CUDA_CHECK(cudaStreamSynchronize(c->stream));
}

static void run_steps_malloc(void *context) {
  timing_context *c = context;
  CUDA_CHECK(steps_with_cudamalloc(c->d_x, c->d_acc, c->n, steps, c->stream));
  CUDA_CHECK(cudaStreamSynchronize(c->stream));
}

static void run_steps_pool(void *context) {
  timing_context *c = context;
  CUDA_CHECK(steps_with_pool(c->d_x, c->d_acc, c->n, steps, c->stream));
  CUDA_CHECK(cudaStreamSynchronize(c->stream));
}

/* A host function queued on the stream holds its later work back until the driver lets go
 * (released) or for at most timeout_ms, on any GPU and at any size. Check 3: steps_with_pool runs
 * while the stream is held, and the hold is let go once it returns: a function that only queues
 * work returns first, one that waits for the GPU (cudaFree synchronizes the device) returns only
 * when the hold gave up (timed_out), however slow the machine. Check 5: the last cudaFreeAsync
 * surely has not happened yet when trim_pool is called (100 ms). */
typedef struct {
  atomic_int released, timed_out;
  double timeout_ms;
} stream_hold;

static void CUDART_CB hold_the_stream(void *data) {
  stream_hold *hold = data;
  double start = wb_now_ms();
  while (!atomic_load(&hold->released)) {
    if (wb_now_ms() - start >= hold->timeout_ms) {
      atomic_store(&hold->timed_out, 1);
      return;
    }
    struct timespec pause = {0, 1000 * 1000};
    nanosleep(&pause, NULL);
  }
}

int main(int argc, char **argv) {
  wb_args args;
  wb_parse_args(argc, argv, &program, &args);
  args.n = wb_seeded_n(&program, &args); /* --seed S: a size of its own (a grade uses one) */
  size_t n = (size_t)args.n;
  size_t bytes = n * sizeof(int);
  wb_require_host_memory(&program, 4.0 * (double)bytes);

  wb_device device;
  wb_device_open(&device);
  int pools_supported = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&pools_supported, cudaDevAttrMemoryPoolsSupported, 0));
  if (!pools_supported) {
    printf("no CUDA device: %s has no stream-ordered memory pools\nSKIP\n", device.name);
    return WB_EXIT_NO_DEVICE;
  }
  wb_require_device_memory(&program, &device, 6.0 * (double)bytes);
  wb_print_header(&program, &device, &args);

  int *host = malloc(bytes), *got_x = malloc(bytes), *got_acc = malloc(bytes),
      *want = malloc(bytes);
  if (!host || !got_x || !got_acc || !want)
    wb_usage_error(&program, "cannot allocate %.1f MiB of host memory", 4.0 * bytes / 1048576.0);
  arange_reference(host, n);

  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaMemPool_t pool;
  CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, 0)); /* where cudaMallocAsync takes memory from */
  unsigned long long zero = 0;
  CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReservedMemHigh, &zero));
  CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));

  /* Room for x, acc and a temporary, and some to spare: the pool need never give memory back
   * while the steps run. */
  unsigned long long threshold = 4ULL * bytes + (64ULL << 20);
  CUDA_CHECK(set_release_threshold(pool, threshold));

  wb_info(&args, "the pool (cudaDeviceGetDefaultMemPool), in bytes:\n");
  wb_info(&args, "  %-31s %10s %10s %10s %10s\n  %-31s %10s %10s %10s %10s\n", "", "reserved",
          "used", "reserved", "used", "", "", "", "high", "high");
  show_pool(&args, pool, "at the start");

  /* Checks 1 and 2: x = arange(n) made in pool memory by your kernel, then `steps` rounds with
   * temporaries from the pool. */
  int *d_x = NULL, *d_acc = NULL;
  CUDA_CHECK(cudaMallocAsync((void **)&d_x, bytes, stream));
  CUDA_CHECK(cudaMallocAsync((void **)&d_acc, bytes, stream));
  CUDA_CHECK(cudaMemsetAsync(d_x, 0xFF, bytes, stream)); /* -1 everywhere: unwritten shows */
  CUDA_CHECK(cudaMemsetAsync(d_acc, 0, bytes, stream));
  CUDA_CHECK(arange_on_device(d_x, n, stream));
  /* Waited for here, so that a kernel that fails is blamed on its own task. */
  if (cudaStreamSynchronize(stream) != cudaSuccess) {
    wb_print_wrapped(stdout, "  ",
                     "  the arange kernel failed (the cusim or CUDA error above says where): "
                     "does its loop stop at i < n?\n");
    return wb_finish(0, "the arange kernel failed (task 1)");
  }
  /* The stream is held until steps_with_pool returns (2 s at most): it only queues work, so it
   * returns with the hold still on. One that waits for the GPU returns when the hold gives up. */
  static stream_hold steps_hold = {.timeout_ms = 2000.0};
  CUDA_CHECK(cudaLaunchHostFunc(stream, hold_the_stream, &steps_hold));
  CUDA_CHECK(steps_with_pool(d_x, d_acc, n, steps, stream));
  int steps_waited = atomic_load(&steps_hold.timed_out);
  atomic_store(&steps_hold.released, 1);
  if (cudaStreamSynchronize(stream) != cudaSuccess) {
    wb_print_wrapped(stdout, "  ",
                     "  the kernels of steps_with_pool touched memory that is not theirs: is "
                     "each temporary n * sizeof(int) bytes (cudaMallocAsync counts bytes), and "
                     "is its cudaFreeAsync queued after the kernels that use it?\n");
    return wb_finish(0, "steps_with_pool's kernels failed (task 2)");
  }
  pool_state during = show_pool(&args, pool, "steps done, x and acc in use");
  CUDA_CHECK(cudaMemcpy(got_x, d_x, bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(got_acc, d_acc, bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFreeAsync(d_x, stream));
  CUDA_CHECK(cudaFreeAsync(d_acc, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  pool_state freed = show_pool(&args, pool, "x and acc freed, stream synced");
  /* One more temporary, its free still queued behind a kernel when trim_pool is called: a trim
   * that does not wait for the stream cannot give that memory back. */
  int *d_last = NULL;
  CUDA_CHECK(cudaMallocAsync((void **)&d_last, bytes, stream));
  static stream_hold trim_hold = {.timeout_ms = 100.0};
  CUDA_CHECK(cudaLaunchHostFunc(stream, hold_the_stream, &trim_hold));
  CUDA_CHECK(arange_on_device(d_last, n, stream));
  CUDA_CHECK(cudaFreeAsync(d_last, stream));
  pool_state queued = show_pool(&args, pool, "one more, its free still queued");
  CUDA_CHECK(trim_pool(pool, stream));
  pool_state trimmed = show_pool(&args, pool, "then trim_pool");

  size_t x_wrong = wb_compare_i32("x", got_x, host, n);
  if (!x_wrong && n < past_the_grid) {
    /* A million CUDA threads take ThreadSanitizer minutes (fibers for each): left out there. */
    const char *sanitizer = wb_sanitizer();
    if (sanitizer && strcmp(sanitizer, "ThreadSanitizer") == 0)
      wb_info(&args, "  (not under ThreadSanitizer: x at %d ints, a million CUDA threads)\n",
              past_the_grid);
    else
      x_wrong = arange_past_the_grid(stream);
  }
  wb_info(&args, "check 1: x made on the device is 0, 1, 2, ...: %s\n", x_wrong ? "no" : "yes");
  steps_reference(host, want, n, steps);
  size_t acc_wrong = wb_compare_i32("acc", got_acc, want, n);
  wb_info(&args, "check 2: acc after %d steps with pool temporaries is right: %s\n", steps,
          acc_wrong ? "no" : "yes");

  /* Check 3: x, acc and one temporary were in use at once, all from the pool. */
  int temps_pooled = during.used_high >= 3ULL * bytes && !steps_waited;
  if (steps_waited)
    wb_print_wrapped(stdout, "  ",
                     "  steps_with_pool returned only when the stream's hold gave up (%.0f s): "
                     "it waited for the GPU. cudaFree synchronizes the whole device; give a "
                     "temporary back in stream order with cudaFreeAsync(d_tmp, stream)\n",
                     steps_hold.timeout_ms / 1000.0);
  else if (during.used_high < 3ULL * bytes)
    wb_print_wrapped(
        stdout, NULL,
        "  used high = %llu bytes, but x, acc and a temporary take %llu: the temporaries did "
        "not come from the pool\n",
        during.used_high, 3ULL * (unsigned long long)bytes);
  wb_info(&args, "check 3: the temporaries came from the pool (used high >= 3 x %zu bytes): %s\n",
          bytes, temps_pooled ? "yes" : "no");

  /* Check 4: all freed, and the pool kept its memory for next time, within the threshold. */
  int used_zero = freed.used == 0;
  int threshold_set = freed.threshold == threshold;
  int kept = freed.reserved > 0 && freed.reserved <= threshold;
  if (!used_zero)
    wb_print_wrapped(stdout, NULL,
                     "  %llu bytes still in use after every free: does each cudaMallocAsync of "
                     "task 2 have its cudaFreeAsync?\n",
                     freed.used);
  if (!threshold_set)
    printf("  the release threshold is %llu bytes, want %llu\n", freed.threshold, threshold);
  else if (!kept)
    printf("  reserved = %llu bytes after the sync: want more than 0 and at most the threshold\n",
           freed.reserved);
  wb_info(&args, "check 4: used back to 0, reserved kept but within the threshold of %llu: %s\n",
          threshold, used_zero && threshold_set && kept ? "yes" : "no");

  /* Check 5: trimming gives back everything that is not in use. Only a pool that keeps its memory
   * (the threshold of task 3) can show it: with threshold 0, the wait alone empties the pool. */
  int trim_ok = threshold_set && queued.reserved > 0 && trimmed.reserved == 0;
  if (!threshold_set)
    printf("  check 5 needs the release threshold of task 3:\n"
           "  without it the pool keeps nothing\n");
  else if (!trim_ok && used_zero) /* memory still in use cannot be trimmed: check 4 says why */
    wb_print_wrapped(
        stdout, NULL,
        "  reserved = %llu bytes after trim_pool, want 0 (did it wait for the stream, so "
        "that the last cudaFreeAsync had happened? and trim to 0? cudaMemPoolTrimTo's "
        "second argument is the memory the pool may keep)\n",
        trimmed.reserved);
  wb_info(&args,
          "check 5: trim_pool gave all of it back (reserved %llu before it, %llu after): %s\n",
          queued.reserved, trimmed.reserved, trim_ok ? "yes" : "no");

  int passed =
      !x_wrong && !acc_wrong && temps_pooled && used_zero && threshold_set && kept && trim_ok;
  if (passed && !args.quiet) {
    timing_context c = {n, bytes, host, NULL, NULL, NULL, stream};
    CUDA_CHECK(cudaMalloc((void **)&c.d_buffer, bytes));
    printf("getting %zu int%s (%.1f MB) on the GPU, each time given back and waited for:\n", n,
           WB_PLURAL(n), bytes / 1e6);
    double copy_ms = wb_time_host_ms(copy_from_host, &c, 1, args.repeat);
    wb_print_figure(&args, "copy from the host", copy_ms, (double)bytes, NULL, 0); /* PCIe */
    double malloc_ms = wb_time_host_ms(malloc_empty, &c, 1, args.repeat);
    wb_print_figure(&args, "cudaMalloc, empty", malloc_ms, 0, NULL, 0);
    double pool_ms = wb_time_host_ms(pool_empty, &c, 1, args.repeat);
    wb_print_figure(&args, "cudaMallocAsync, empty", pool_ms, 0, NULL, 0);
    CUDA_CHECK(set_release_threshold(pool, 0)); /* the default: give it all back at each sync */
    double pool_zero_ms = wb_time_host_ms(pool_empty, &c, 1, args.repeat);
    wb_print_figure(&args, "cudaMallocAsync, threshold 0", pool_zero_ms, 0, NULL, 0);
    CUDA_CHECK(set_release_threshold(pool, threshold));
    double fill_ms = wb_time_host_ms(pool_and_fill, &c, 1, args.repeat);
    wb_print_figure(&args, "pool + fill kernel", fill_ms, (double)bytes, &device, 0);
    double launch_ms = wb_time_host_ms(fill_launch_only, &c, 1, args.repeat);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    wb_print_figure(&args, "fill kernel, not waited for", launch_ms, 0, NULL, 0);

    printf("one %zu-byte temporary, allocated and freed %d times (per pair):\n", pair_bytes, pairs);
    double malloc_pair_us = 1e3 * wb_time_host_ms(malloc_pairs, &c, 1, args.repeat) / pairs;
    double pool_pair_us = 1e3 * wb_time_host_ms(pool_pairs, &c, 1, args.repeat) / pairs;
    printf("  %-27s %9.3f us\n", "cudaMalloc + cudaFree", malloc_pair_us);
    printf("  %-27s %9.3f us   %.1fx as fast\n", "cudaMallocAsync + FreeAsync", pool_pair_us,
           pool_pair_us > 0 ? malloc_pair_us / pool_pair_us : 0.0);

    printf("%d steps, each with an n-int temporary:\n", steps);
    CUDA_CHECK(cudaMalloc((void **)&c.d_x, bytes));
    CUDA_CHECK(cudaMalloc((void **)&c.d_acc, bytes));
    CUDA_CHECK(cudaMemcpy(c.d_x, host, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemsetAsync(c.d_acc, 0, bytes, c.stream));
    double steps_malloc_ms = wb_time_host_ms(run_steps_malloc, &c, 1, args.repeat);
    double steps_pool_ms = wb_time_host_ms(run_steps_pool, &c, 1, args.repeat);
    wb_print_figure(&args, "steps_with_cudamalloc", steps_malloc_ms, 0, NULL, 0);
    wb_print_figure(&args, "steps_with_pool", steps_pool_ms, 0, NULL, 0);
    CUDA_CHECK(cudaFree(c.d_x));
    CUDA_CHECK(cudaFree(c.d_acc));
    CUDA_CHECK(cudaFree(c.d_buffer));

    printf("the pool, in bytes:\n");
    show_pool(&args, pool, "after the timings");
    CUDA_CHECK(trim_pool(pool, stream));
    show_pool(&args, pool, "after trim_pool");
  }

  CUDA_CHECK(cudaStreamDestroy(stream));
  free(host);
  free(got_x);
  free(got_acc);
  free(want);
  if (x_wrong) return wb_finish(0, "x is not 0, 1, 2, ... (task 1: the arange kernel)");
  if (acc_wrong) return wb_finish(0, "acc is wrong after the steps (task 2: steps_with_pool)");
  if (steps_waited)
    return wb_finish(0, "steps_with_pool waited for the GPU (task 2: cudaFreeAsync)");
  if (!temps_pooled)
    return wb_finish(0, "the temporaries did not come from the pool (task 2: cudaMallocAsync)");
  if (!threshold_set) return wb_finish(0, "the pool's release threshold was not set (task 3)");
  if (!used_zero)
    return wb_finish(0, "pool memory is still in use after every free (task 2: cudaFreeAsync)");
  if (!kept) return wb_finish(0, "the pool did not keep its memory within the release threshold");
  return wb_finish(trim_ok, "trim_pool left memory in the pool (task 4: cudaMemPoolTrimTo)");
}
