/* wb.h: the workbook's C harness, shared by every lesson's driver (main.c) and, for CUDA_CHECK,
 * by the learner's exercise.cu. Plain C11 so it works from .c and .cu files alike, against the
 * CUDA toolkit or the CPU simulator.
 *
 * Exit codes, everywhere: 0 correct, 1 wrong result, 2 usage error, 3 CUDA or system error,
 * 77 no usable CUDA device (CTest's skip code).
 */
#ifndef WB_H
#define WB_H

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* WB_ASAN is 1 in AddressSanitizer builds (the sim-asan preset): a driver that keeps its own guard
 * zone after an output array drops it there, so the sanitizer reports the overflow itself. */
#if defined(__SANITIZE_ADDRESS__)
#define WB_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WB_ASAN 1
#endif
#endif
#ifndef WB_ASAN
#define WB_ASAN 0
#endif

/* WB_TSAN is 1 in ThreadSanitizer builds (the sim-race preset). */
#if defined(__SANITIZE_THREAD__)
#define WB_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define WB_TSAN 1
#endif
#endif
#ifndef WB_TSAN
#define WB_TSAN 0
#endif

enum {
  WB_EXIT_PASS = 0,
  WB_EXIT_FAIL = 1,
  WB_EXIT_USAGE = 2,
  WB_EXIT_CUDA = 3,
  WB_EXIT_NO_DEVICE = 77
};

/* ---- Output width ------------------------------------------------------------------------- */

/* Every line a learner reads fits a terminal of this many columns. */
#define WB_COLUMNS 80

/* "s" unless count is 1: "%d element%s", n, WB_PLURAL(n). */
#define WB_PLURAL(count) ((count) == 1 ? "" : "s")
/* printf, word-wrapped to WB_COLUMNS; continuation lines start with `continuation` (e.g. "  "). */
void wb_print_wrapped(FILE *out, const char *continuation, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- CUDA errors ------------------------------------------------------------------------- */

/* Check a CUDA runtime call; on error print file, line, the error's name and message, exit 3. */
#define CUDA_CHECK(call) wb_cuda_check((call), #call, __FILE__, __LINE__)
/* Check for an error from the last kernel launch (bad configuration) without synchronizing. */
#define CUDA_CHECK_LAUNCH() wb_cuda_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)

void wb_cuda_check(cudaError_t status, const char *what, const char *file, int line);

/* ---- Command line ------------------------------------------------------------------------ */

typedef struct {
  long long n;     /* problem size (--n) */
  uint64_t seed;   /* data seed (--seed) */
  int repeat;      /* timed repetitions, the median is reported (--repeat) */
  int quiet;       /* print only mismatches and the verdict (--quiet) */
  int cpu_threads; /* --threads for lessons about the CPU; 0 = all */
  int sim_sized;   /* n is the simulator's default (no --n given, sim_default_n set) */
} wb_args;

typedef struct {
  const char *program;   /* e.g. "04-doubling-large-arrays" */
  const char *summary;   /* one line: what the program does */
  long long default_n;   /* GPU-sized default */
  long long min_n;       /* smallest valid n (usually 1) */
  long long max_n;       /* largest valid n */
  const char *n_meaning; /* e.g. "number of doubles" */
  int default_repeat;    /* 0 means 5 */
  int accepts_threads;   /* lesson accepts --threads */
  long long
      sim_default_n; /* default on the CPU simulator, sized to finish in seconds (0: default_n) */
} wb_program;

/* Parse the uniform flags. Bad input prints one line and the usage to stderr and exits 2;
 * --help prints the usage to stdout and exits 0. */
void wb_parse_args(int argc, char **argv, const wb_program *program, wb_args *args);
/* The size a run checks: n itself, or with --seed S (any S but the default 1) a size in (n/2, n)
 * that depends on S (never n itself, never below min_n). A grade adds a run with a seed of its own,
 * so an answer that knows the shipped sizes (a table of them) meets a size it has not seen. */
long long wb_seeded_n(const wb_program *program, const wb_args *args);

/* What a check ran on, for the test that proves every lesson's seeded run meets new inputs
 * (tests/harness/seeded-inputs.sh): the size wb_seeded_n returned, and a digest (FNV-1a) of the
 * first 64 bytes of every input made from the seed, which shows the data's own dependence on the
 * seed whatever the size. wb_fill_* record theirs; a driver that makes inputs another way records
 * them with wb_input_record. Only when WB_INPUT_DIGEST names a file does wb_finish append one line
 * to it, "size N data HEX inputs K"; otherwise nothing is recorded or written. */
void wb_input_record(const void *data, size_t bytes);

/* Exit 2 with a one-line reason unless `bytes` of host memory can plausibly be allocated. */
void wb_require_host_memory(const wb_program *program, double bytes);

/* Print "program: reason" and usage hint, exit 2. */
void wb_usage_error(const wb_program *program, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));

/* ---- Fences: catching writes past the end of a device array ------------------------------- */

/* A driver gives an output array a fence (extra elements after it), fills array and fence with
 * 0xFF bytes before the launch, and afterwards asks how many of the fence's `count` elements of
 * `element_size` bytes are no longer all 0xFF: those were written by threads that ran past the
 * end. (Under AddressSanitizer, WB_ASAN, drivers leave the fence out: the sanitizer reports the
 * overflow itself, with file and line.) */
size_t wb_fence_written(const void *d_fence, size_t count, size_t element_size);

/* ---- Deterministic data: a counter-based generator (same seed, same data, any backend) ---- */

uint64_t wb_hash64(uint64_t seed, uint64_t counter);
/* Uniform in [0, 1), 24 (float) or 53 (double) random bits. */
float wb_uniform_f32(uint64_t seed, uint64_t index);
double wb_uniform_f64(uint64_t seed, uint64_t index);
void wb_fill_f32(float *data, size_t n, uint64_t seed, float lo, float hi);
void wb_fill_f64(double *data, size_t n, uint64_t seed, double lo, double hi);
void wb_fill_i32(int *data, size_t n, uint64_t seed, int lo, int hi); /* inclusive range */

/* ---- Comparison --------------------------------------------------------------------------- */

/* Element i matches when |got - want| <= atol + rtol * |want|; NaN never matches (unless both are
 * NaN and allow_nan is set). Prints the first few mismatches as "  index: got X, want Y" and a
 * summary line; returns the number of mismatches. `what` names the array in the messages. */
size_t wb_compare_f32(const char *what, const float *got, const float *want, size_t n, double atol,
                      double rtol);
size_t wb_compare_f64(const char *what, const double *got, const double *want, size_t n,
                      double atol, double rtol);
size_t wb_compare_i32(const char *what, const int *got, const int *want, size_t n);
size_t wb_compare_u8(const char *what, const unsigned char *got, const unsigned char *want,
                     size_t n);
/* The same test as wb_compare_f64, silently: how many elements do not match. For a second look
 * (e.g. "was the result right after a later synchronize?") that must not print mismatches. */
size_t wb_count_mismatches_f64(const double *got, const double *want, size_t n, double atol,
                               double rtol);
/* Distance in units in the last place between two floats (for lessons about precision). */
int64_t wb_ulp_distance_f32(float a, float b);
/* How many mismatch lines the compare functions print (default 5). */
void wb_set_max_reported(int count);

/* ---- Timing -------------------------------------------------------------------------------- */

typedef void (*wb_timed_fn)(void *context);

double wb_now_ms(void); /* monotonic host clock */
/* Run fn `warmup` times, then `repeat` times; return the median time in milliseconds.
 * Under a sanitizer (wb_sanitizer() is not NULL) nothing is timed, since a sanitizer makes every
 * run 5 to 20 times slower and its times mean nothing: a call with a warm-up (whose result the
 * driver has already checked) does not run fn at all and returns 0; a call without one runs fn
 * once (the driver may check what that run computed) and returns its time. */
double wb_time_host_ms(wb_timed_fn fn, void *context, int warmup, int repeat);
/* The same with CUDA events around each call on the default stream (fn launches GPU work).
 * Checks for launch and execution errors after each call. */
double wb_time_cuda_ms(wb_timed_fn fn, void *context, int warmup, int repeat);
/* "AddressSanitizer" or "ThreadSanitizer" in a build with that sanitizer, else NULL. */
const char *wb_sanitizer(void);
double wb_median(double *values, int count); /* sorts values in place */
/* True while wb_time_cuda_ms runs a timed call: a launcher that normally waits for its kernel
 * (to report errors) leaves the wait to the timing events then, so they time the kernel alone. */
int wb_timing(void);

/* ---- Leaks ------------------------------------------------------------------------------------
 */

/* Bytes of device (and managed) memory allocated and not yet freed: exact on the CPU simulator;
 * -1 on a GPU, where no API tells it exactly (cudaMemGetInfo moves in pages and with other
 * processes), so a check that a learner's function freed its memory runs on the simulator. */
long long wb_device_bytes_held(void);

/* ---- The device ----------------------------------------------------------------------------- */

typedef struct {
  char name[256];
  int is_simulator; /* the CPU simulator, not a GPU */
  int major, minor; /* compute capability */
  int multiprocessors;
  double peak_gbps; /* theoretical peak memory bandwidth, GB/s (0 when unknown) */
  size_t global_bytes;
  int pageable_access; /* 1: the GPU reads malloc memory itself (HMM;
                          cudaDevAttrPageableMemoryAccess) */
  int driver_version, runtime_version;
} wb_device;

/* Find device 0. Where there is no usable device (no driver, driver too old, no GPU), print
 * "no CUDA device: <reason>" and exit 77 so CTest reports a skip. */
void wb_device_open(wb_device *device);
/* Exit 2 with a reason unless `bytes` fit in the device's free memory. */
void wb_require_device_memory(const wb_program *program, const wb_device *device, double bytes);
/* 1 when a launch was refused for its shape (block or grid dimensions, dynamic shared memory, a
 * block above the kernel's __launch_bounds__): CUDA 13 answers cudaErrorInvalidValue (seen on an
 * H200, driver 580), older releases cudaErrorInvalidConfiguration. */
static inline int wb_launch_refused(cudaError_t status) {
  return status == cudaErrorInvalidValue || status == cudaErrorInvalidConfiguration;
}

/* ---- Reporting ------------------------------------------------------------------------------ */

/* The header: program, device (or "CPU simulator") and the size. */
void wb_print_header(const wb_program *program, const wb_device *device, const wb_args *args);
/* A figure line: "  label   1.234 ms   812.3 GB/s   24% peak   12.30x vs CPU".
 * bytes <= 0 omits bandwidth; baseline_ms <= 0 omits the speedup; device may be NULL.
 * Under a sanitizer the first call prints one line saying figures are not timed, and no call
 * prints a figure. */
void wb_print_figure(const wb_args *args, const char *label, double ms, double bytes,
                     const wb_device *device, double baseline_ms);
/* printf that --quiet silences; a line wider than WB_COLUMNS wraps, indented two spaces more. */
void wb_info(const wb_args *args, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print "PASS" or "FAIL: reason" as the last line and return the exit code (0 or 1). */
int wb_finish(int passed, const char *reason);

/* ---- The simulator's profiler ---------------------------------------------------------------
 * Counts of what a GPU does with a kernel's memory accesses, for checks such as "the tiled
 * transpose is coalesced" or "the padded tile has no bank conflicts". The CPU simulator counts
 * them exactly (Nsight Compute's definitions, docs/architecture.md); on a GPU they are not
 * available, and a check falls back to timing. */
typedef struct {
  int available; /* 1: counted; 0: not available (a GPU build, or no instrumentation) */
  unsigned long long launches;
  /* Global memory: warp requests and the 32-byte sectors they touched; the ideal is the fewest
   * sectors that hold the distinct bytes asked for (a coalesced access is at the ideal). */
  unsigned long long global_load_requests, global_load_sectors, global_load_ideal_sectors;
  unsigned long long global_store_requests, global_store_sectors, global_store_ideal_sectors;
  /* Shared memory: warp requests, and the wavefronts past one per 128 distinct bytes. */
  unsigned long long shared_requests, bank_conflicts;
  double active_lanes; /* per request, 0 to 32 (32: no divergence) */
  unsigned long long atomics, barriers;
  double occupancy; /* theoretical, 0 to 1, of the last launch on an H100 */
  /* Branches (each if or loop test of device code, once per warp) and the divergent ones, whose
   * active lanes did not all go the same way. */
  unsigned long long branches, divergent_branches;
} wb_profile;

/* Starts counting: wb_profile_stop sums the launches made after this call. */
void wb_profile_start(void);
/* Waits for the device and fills *out with the counts of the launches of `kernel` (its name;
 * NULL: all kernels) since wb_profile_start. Returns out->available. */
int wb_profile_stop(const char *kernel, wb_profile *out);
/* Why the counts are not available (one line), or "" when they are. */
const char *wb_profile_unavailable(void);

#ifdef __cplusplus
}
#endif

#endif /* WB_H */
