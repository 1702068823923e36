/* wb.c: the workbook's C harness. See wb.h for what each function promises. */
#define _POSIX_C_SOURCE 200809L
#include "wb.h"
#include "verdict.h"

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CUSIM
#include <cusim_profile.h> /* the profiler behind wb_profile_* */
#endif
#include <time.h>
#include <unistd.h>

/* ---- Line wrapping ------------------------------------------------------------------------ */

/* Print text word-wrapped to WB_COLUMNS: a line breaks at the last space that keeps it within the
 * width (a word longer than the width stays whole). Each continuation line starts with
 * `continuation`, or where that is NULL with the line's own indentation and two spaces more.
 * Newlines in the text start a new line; text after the last newline is printed as it is. */
static void print_wrapped_text(FILE *out, const char *continuation, const char *text) {
  const char *p = text;
  while (*p) {
    const char *end = strchr(p, '\n');
    if (!end) {
      fputs(p, out);
      return;
    }
    char own[WB_COLUMNS / 2 + 3];
    const char *indent = continuation;
    if (!indent) {
      size_t leading = strspn(p, " ");
      if (leading > WB_COLUMNS / 2) leading = WB_COLUMNS / 2;
      memset(own, ' ', leading + 2);
      own[leading + 2] = '\0';
      indent = own;
    }
    size_t indent_width = strlen(indent), column = 0;
    while (p < end) {
      size_t spaces = strspn(p, " ");
      if (p + spaces > end) spaces = (size_t)(end - p);
      size_t word = 0;
      while (p + spaces + word < end && p[spaces + word] != ' ') ++word;
      if (word > 0 && column > indent_width && column + spaces + word > WB_COLUMNS) {
        fprintf(out, "\n%s", indent);
        column = indent_width;
      } else {
        fprintf(out, "%.*s", (int)spaces, p);
        column += spaces;
      }
      fprintf(out, "%.*s", (int)word, p + spaces);
      column += word;
      p += spaces + word;
    }
    fputc('\n', out);
    p = end + 1;
  }
}

static void vprint_wrapped(FILE *out, const char *continuation, const char *fmt, va_list ap) {
  char text[4096];
  vsnprintf(text, sizeof text, fmt, ap);
  print_wrapped_text(out, continuation, text);
}

void wb_print_wrapped(FILE *out, const char *continuation, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprint_wrapped(out, continuation, fmt, ap);
  va_end(ap);
}

/* ---- CUDA errors ------------------------------------------------------------------------- */

void wb_cuda_check(cudaError_t status, const char *what, const char *file, int line) {
  if (status == cudaSuccess) return;
  fflush(stdout);
  wb_print_wrapped(stderr, "  ", "%s:%d: CUDA error %s (%d): %s\n", file, line,
                   cudaGetErrorName(status), (int)status, cudaGetErrorString(status));
  wb_print_wrapped(stderr, "      ", "  in: %s\n", what);
#ifdef CUSIM
  /* The simulator's message names the exercise's task where it can: the FAIL line says it too
   * (the workbook's hint, the grader's per-task verdict). */
  if (cusim_last_error_task() > 0) {
    fprintf(stdout, "FAIL: CUDA error %s in task %d (cusim: error says why)\n",
            cudaGetErrorName(status), cusim_last_error_task());
    fflush(stdout);
    char reason[64]; /* the verdict record names the task too (the grader reads only the record) */
    snprintf(reason, sizeof reason, "CUDA error in task %d", cusim_last_error_task());
    wb_verdict_write(0, reason);
    exit(WB_EXIT_CUDA);
  }
#endif
  fprintf(stdout, "FAIL: CUDA error %s\n", cudaGetErrorName(status));
  fflush(stdout);
  wb_verdict_write(0, "CUDA error");
  exit(WB_EXIT_CUDA);
}

/* ---- Command line ------------------------------------------------------------------------ */

/* The default n of this build: on the CPU simulator (CUSIM) a lesson may name a smaller one, so a
 * run without --n finishes in seconds there; GPU builds keep the GPU-sized default. */
static long long build_default_n(const wb_program *program) {
#ifdef CUSIM
  if (program->sim_default_n > 0) return program->sim_default_n;
#endif
  return program->default_n;
}

static void print_usage(FILE *out, const wb_program *program) {
  fprintf(out, "usage: %s [options]\n", program->program);
  wb_print_wrapped(out, "  ", "  %s\n", program->summary);
  char defaults[96];
  if (build_default_n(program) != program->default_n)
    snprintf(defaults, sizeof defaults, "default %lld on the simulator, %lld on a GPU",
             build_default_n(program), program->default_n);
  else
    snprintf(defaults, sizeof defaults, "default %lld", program->default_n);
  wb_print_wrapped(out, "               ",
                   "  --n N        %s (%s; %lld..%lld; suffixes k, M, G allowed)\n",
                   program->n_meaning, defaults, program->min_n, program->max_n);
  fprintf(out,
          "  --seed S     seed of the deterministic input data (default 1)\n"
          "  --repeat R   timed repetitions, the median is reported (default %d)\n"
          "  --quiet      print only mismatches and the verdict\n",
          program->default_repeat > 0 ? program->default_repeat : 5);
  if (program->accepts_threads)
    fprintf(out, "  --threads T  most CPU threads to use (default: all cores)\n");
  fprintf(out, "  --help       print this and exit\n"
               "exit status: 0 correct, 1 wrong result, 2 usage error, 3 CUDA error,\n"
               "  77 no CUDA device\n");
}

void wb_usage_error(const wb_program *program, const char *fmt, ...) {
  char reason[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(reason, sizeof reason, fmt, ap);
  va_end(ap);
  wb_print_wrapped(stderr, "  ", "%s: %s (try --help)\n", program->program, reason);
  exit(WB_EXIT_USAGE);
}

/* Parse a non-negative integer with an optional k/M/G suffix (powers of ten: 30M = 30000000). */
static int parse_count(const char *text, long long *value) {
  if (!text || !*text || *text == '-' || *text == '+') return 0;
  errno = 0;
  char *end = NULL;
  unsigned long long parsed = strtoull(text, &end, 10);
  if (errno || end == text) return 0;
  unsigned long long scale = 1;
  if (*end == 'k' || *end == 'K')
    scale = 1000ULL, ++end;
  else if (*end == 'M')
    scale = 1000000ULL, ++end;
  else if (*end == 'G')
    scale = 1000000000ULL, ++end;
  if (*end != '\0') return 0;
  if (parsed > (unsigned long long)LLONG_MAX / scale) return 0;
  *value = (long long)(parsed * scale);
  return 1;
}

void wb_parse_args(int argc, char **argv, const wb_program *program, wb_args *args) {
  args->n = build_default_n(program);
  args->sim_sized = args->n != program->default_n;
  args->seed = 1;
  args->repeat = program->default_repeat > 0 ? program->default_repeat : 5;
  args->quiet = 0;
  args->cpu_threads = 0;
  for (int i = 1; i < argc; ++i) {
    const char *flag = argv[i];
    const char *value = NULL;
    char name[32];
    const char *equals = strchr(flag, '=');
    if (equals && (size_t)(equals - flag) < sizeof name) {
      memcpy(name, flag, (size_t)(equals - flag));
      name[equals - flag] = '\0';
      value = equals + 1;
      flag = name;
    }
    if (!strcmp(flag, "--help") || !strcmp(flag, "-h")) {
      print_usage(stdout, program);
      exit(WB_EXIT_PASS);
    } else if (!strcmp(flag, "--quiet") || !strcmp(flag, "-q")) {
      if (value) wb_usage_error(program, "--quiet takes no value");
      args->quiet = 1;
      continue;
    }
    int takes_value = !strcmp(flag, "--n") || !strcmp(flag, "--seed") ||
                      !strcmp(flag, "--repeat") ||
                      (program->accepts_threads && !strcmp(flag, "--threads"));
    if (!takes_value) wb_usage_error(program, "unknown flag '%s'", argv[i]);
    if (!value) {
      if (i + 1 >= argc) wb_usage_error(program, "%s needs a value", flag);
      value = argv[++i];
    }
    long long number = 0;
    if (!parse_count(value, &number))
      wb_usage_error(program, "%s wants a non-negative whole number, not '%s'", flag, value);
    if (!strcmp(flag, "--n")) {
      if (number < program->min_n || number > program->max_n)
        wb_usage_error(program, "--n %s is out of range (%lld..%lld)", value, program->min_n,
                       program->max_n);
      args->n = number;
      args->sim_sized = 0;
    } else if (!strcmp(flag, "--seed")) {
      args->seed = (uint64_t)number;
    } else if (!strcmp(flag, "--repeat")) {
      if (number < 1 || number > 1000)
        wb_usage_error(program, "--repeat %s is out of range (1..1000)", value);
      args->repeat = (int)number;
    } else {
      if (number < 1 || number > 4096)
        wb_usage_error(program, "--threads %s is out of range (1..4096)", value);
      args->cpu_threads = (int)number;
    }
  }
}

static double host_bytes_required; /* the last wb_require_host_memory, for the simulator's sum */

static double physical_bytes(void) {
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page_size > 0 ? (double)pages * (double)page_size : 0.0; /* 0: unknown */
}

void wb_require_host_memory(const wb_program *program, double bytes) {
  host_bytes_required = bytes;
  double physical = physical_bytes();
  if (physical > 0 && bytes > 0.8 * physical)
    wb_usage_error(program, "this size needs %.1f GiB of host memory, but the machine has %.1f GiB",
                   bytes / 1073741824.0, physical / 1073741824.0);
}

/* ---- Fences ------------------------------------------------------------------------------ */

size_t wb_fence_written(const void *d_fence, size_t count, size_t element_size) {
  size_t bytes = count * element_size;
  unsigned char *fence = malloc(bytes ? bytes : 1);
  if (!fence) {
    fprintf(stderr, "out of host memory for a fence of %zu bytes\n", bytes);
    exit(WB_EXIT_CUDA);
  }
  CUDA_CHECK(cudaMemcpy(fence, d_fence, bytes, cudaMemcpyDeviceToHost));
  size_t written = 0;
  for (size_t i = 0; i < count; ++i)
    for (size_t b = 0; b < element_size; ++b)
      if (fence[i * element_size + b] != 0xFF) {
        ++written;
        break;
      }
  free(fence);
  return written;
}

/* ---- Deterministic data ------------------------------------------------------------------ */

/* SplitMix64's finalizer over seed and counter: every element is a pure function of (seed,
 * index), so any backend and any thread count produce the same data. */
uint64_t wb_hash64(uint64_t seed, uint64_t counter) {
  uint64_t z =
      seed * 0x9E3779B97F4A7C15ULL + counter * 0xD1B54A32D192ED03ULL + 0x632BE59BD9B4E019ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

float wb_uniform_f32(uint64_t seed, uint64_t index) {
  return (float)(wb_hash64(seed, index) >> 40) * (1.0f / 16777216.0f);
}

double wb_uniform_f64(uint64_t seed, uint64_t index) {
  return (double)(wb_hash64(seed, index) >> 11) * (1.0 / 9007199254740992.0);
}

void wb_fill_f32(float *data, size_t n, uint64_t seed, float lo, float hi) {
  for (size_t i = 0; i < n; ++i) data[i] = lo + (hi - lo) * wb_uniform_f32(seed, i);
  wb_input_record(data, n * sizeof *data);
}

void wb_fill_f64(double *data, size_t n, uint64_t seed, double lo, double hi) {
  for (size_t i = 0; i < n; ++i) data[i] = lo + (hi - lo) * wb_uniform_f64(seed, i);
  wb_input_record(data, n * sizeof *data);
}

void wb_fill_i32(int *data, size_t n, uint64_t seed, int lo, int hi) {
  uint64_t span = (uint64_t)((int64_t)hi - (int64_t)lo) + 1;
  for (size_t i = 0; i < n; ++i)
    data[i] = (int)((int64_t)lo + (int64_t)(wb_hash64(seed, i) % span));
  wb_input_record(data, n * sizeof *data);
}

/* ---- Comparison ------------------------------------------------------------------------- */

static int max_reported = 5;

void wb_set_max_reported(int count) {
  max_reported = count < 0 ? 0 : count;
}

static void report_summary(const char *what, size_t mismatches, size_t n) {
  if (mismatches > (size_t)max_reported)
    printf("  ... and %zu more\n", mismatches - (size_t)max_reported);
  if (mismatches) printf("  %s: %zu of %zu element%s wrong\n", what, mismatches, n, WB_PLURAL(n));
}

static int float_matches(double got, double want, double atol, double rtol) {
  if (isnan(got) || isnan(want)) return 0;
  if (isinf(want) || isinf(got)) return got == want;
  return fabs(got - want) <= atol + rtol * fabs(want);
}

size_t wb_compare_f32(const char *what, const float *got, const float *want, size_t n, double atol,
                      double rtol) {
  size_t mismatches = 0;
  for (size_t i = 0; i < n; ++i) {
    if (float_matches(got[i], want[i], atol, rtol)) continue;
    if (mismatches++ < (size_t)max_reported)
      printf("  %s[%zu]: got %.9g, want %.9g\n", what, i, (double)got[i], (double)want[i]);
  }
  report_summary(what, mismatches, n);
  return mismatches;
}

size_t wb_compare_f64(const char *what, const double *got, const double *want, size_t n,
                      double atol, double rtol) {
  size_t mismatches = 0;
  for (size_t i = 0; i < n; ++i) {
    if (float_matches(got[i], want[i], atol, rtol)) continue;
    if (mismatches++ < (size_t)max_reported)
      printf("  %s[%zu]: got %.17g, want %.17g\n", what, i, got[i], want[i]);
  }
  report_summary(what, mismatches, n);
  return mismatches;
}

size_t wb_count_mismatches_f64(const double *got, const double *want, size_t n, double atol,
                               double rtol) {
  size_t mismatches = 0;
  for (size_t i = 0; i < n; ++i) mismatches += !float_matches(got[i], want[i], atol, rtol);
  return mismatches;
}

size_t wb_compare_i32(const char *what, const int *got, const int *want, size_t n) {
  size_t mismatches = 0;
  for (size_t i = 0; i < n; ++i) {
    if (got[i] == want[i]) continue;
    if (mismatches++ < (size_t)max_reported)
      printf("  %s[%zu]: got %d, want %d\n", what, i, got[i], want[i]);
  }
  report_summary(what, mismatches, n);
  return mismatches;
}

size_t wb_compare_u8(const char *what, const unsigned char *got, const unsigned char *want,
                     size_t n) {
  size_t mismatches = 0;
  for (size_t i = 0; i < n; ++i) {
    if (got[i] == want[i]) continue;
    if (mismatches++ < (size_t)max_reported)
      printf("  %s[%zu]: got %u, want %u\n", what, i, got[i], want[i]);
  }
  report_summary(what, mismatches, n);
  return mismatches;
}

/* Map a float's bits onto a line where neighbouring floats are neighbouring integers. */
static int64_t ordered_bits(float value) {
  int32_t bits;
  memcpy(&bits, &value, sizeof bits);
  return bits < 0 ? (int64_t)INT32_MIN - bits : bits;
}

int64_t wb_ulp_distance_f32(float a, float b) {
  if (isnan(a) || isnan(b)) return INT64_MAX;
  int64_t d = ordered_bits(a) - ordered_bits(b);
  return d < 0 ? -d : d;
}

/* ---- Timing ------------------------------------------------------------------------------ */

double wb_now_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec * 1e3 + (double)now.tv_nsec * 1e-6;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double wb_median(double *values, int count) {
  if (count <= 0) return 0.0;
  qsort(values, (size_t)count, sizeof *values, compare_doubles);
  return count % 2 ? values[count / 2] : 0.5 * (values[count / 2 - 1] + values[count / 2]);
}

static double *timing_buffer(int repeat) {
  double *times = malloc(sizeof(double) * (size_t)(repeat > 0 ? repeat : 1));
  if (!times) {
    fprintf(stderr, "out of host memory for timings\n");
    exit(WB_EXIT_CUDA);
  }
  return times;
}

/* A timing loop that has run for more than 3 s says how far it is, at most every 3 s, on stderr,
 * so a long run does not look hung. */
typedef struct {
  double start_ms, reported_ms;
  int total;
} timing_progress;

static timing_progress progress_start(int warmup, int repeat) {
  timing_progress progress = {wb_now_ms(), 0.0, warmup + repeat};
  progress.reported_ms = progress.start_ms;
  return progress;
}

static void progress_step(timing_progress *progress, int done) {
  double now = wb_now_ms();
  if (now - progress->reported_ms < 3000.0 || done >= progress->total) return;
  progress->reported_ms = now;
  fprintf(stderr, "  (timing: %d of %d runs done, %.0f s so far)\n", done, progress->total,
          (now - progress->start_ms) / 1000.0);
}

#if WB_TSAN
/* ThreadSanitizer reads these when the program starts. The lessons' OpenMP loops (07's
 * reference.c) run on libgomp, which is not built with ThreadSanitizer: it cannot see the barrier
 * that ends a parallel region, and would report a race between two regions of correct code (the
 * workbook never cries wolf). A race with an OpenMP region's outlined function (NAME._omp_fn.N)
 * in either stack is therefore not reported: races there are TSan's blind spot, not a finding. */
const char *__tsan_default_suppressions(void);
const char *__tsan_default_suppressions(void) {
  return "race:._omp_fn.\n";
}
#endif

const char *wb_sanitizer(void) {
#if WB_ASAN
  return "AddressSanitizer";
#elif WB_TSAN
  return "ThreadSanitizer";
#else
  return NULL;
#endif
}

/* Under a sanitizer: nothing is timed (wb.h). A call with a warm-up runs nothing; one without
 * runs fn once, for its result. Returns 1 when the caller must time nothing further. */
static int untimed_under_sanitizer(wb_timed_fn fn, void *context, int warmup, double *ms) {
  if (!wb_sanitizer()) return 0;
  *ms = 0.0;
  if (warmup <= 0) {
    double start = wb_now_ms();
    fn(context);
    *ms = wb_now_ms() - start;
  }
  return 1;
}

double wb_time_host_ms(wb_timed_fn fn, void *context, int warmup, int repeat) {
  double untimed_ms;
  if (untimed_under_sanitizer(fn, context, warmup, &untimed_ms)) return untimed_ms;
  timing_progress progress = progress_start(warmup, repeat);
  for (int i = 0; i < warmup; ++i) {
    fn(context);
    progress_step(&progress, i + 1);
  }
  double *times = timing_buffer(repeat);
  for (int i = 0; i < repeat; ++i) {
    double start = wb_now_ms();
    fn(context);
    times[i] = wb_now_ms() - start;
    progress_step(&progress, warmup + i + 1);
  }
  double median = wb_median(times, repeat);
  free(times);
  return median;
}

static int timing_now; /* wb_time_cuda_ms is inside a timed call */

int wb_timing(void) {
  return timing_now;
}

long long wb_device_bytes_held(void) {
#ifdef CUSIM
  return cusim_device_bytes_held();
#else
  return -1;
#endif
}

double wb_time_cuda_ms(wb_timed_fn fn, void *context, int warmup, int repeat) {
  double untimed_ms;
  if (untimed_under_sanitizer(fn, context, warmup, &untimed_ms)) {
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    return untimed_ms;
  }
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  timing_progress progress = progress_start(warmup, repeat);
  for (int i = 0; i < warmup; ++i) fn(context);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  progress_step(&progress, warmup);
  double *times = timing_buffer(repeat);
  for (int i = 0; i < repeat; ++i) {
    CUDA_CHECK(cudaEventRecord(start, 0));
    timing_now = 1;
    fn(context);
    timing_now = 0;
    CUDA_CHECK(cudaEventRecord(stop, 0));
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    times[i] = ms;
    progress_step(&progress, warmup + i + 1);
  }
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  double median = wb_median(times, repeat);
  free(times);
  return median;
}

/* ---- The device ------------------------------------------------------------------------------ */

/* Why there is no usable device, in words a learner can act on. Without any NVIDIA driver the
 * runtime answers cudaErrorInsufficientDriver, as it does for a driver older than the toolkit;
 * "driver version is insufficient" then reads as "update your driver", so where none of the
 * driver's device nodes exist (Linux, or WSL's /dev/dxg) it says there is no driver. */
static const char *no_device_reason(cudaError_t status) {
  if (status == cudaSuccess) return "the driver reports 0 devices";
  if (status == cudaErrorInsufficientDriver && access("/dev/nvidiactl", F_OK) != 0 &&
      access("/proc/driver/nvidia/version", F_OK) != 0 && access("/dev/dxg", F_OK) != 0)
    return "no NVIDIA driver (nothing to run CUDA programs on this machine)";
  if (status == cudaErrorInsufficientDriver)
    return "the NVIDIA driver is older than this CUDA toolkit (update it)";
  return cudaGetErrorString(status);
}

void wb_device_open(wb_device *device) {
  memset(device, 0, sizeof *device);
  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    /* No driver, no GPU, an old driver: "cannot run here", which CTest shows as a skip. */
    printf("no CUDA device: %s\n", no_device_reason(status));
    printf("SKIP\n");
    exit(WB_EXIT_NO_DEVICE);
  }
  struct cudaDeviceProp prop;
  CUDA_CHECK(cudaSetDevice(0));
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  snprintf(device->name, sizeof device->name, "%s", prop.name);
  device->is_simulator = strstr(prop.name, "CPU simulator") != NULL;
  device->major = prop.major;
  device->minor = prop.minor;
  device->multiprocessors = prop.multiProcessorCount;
  device->global_bytes = prop.totalGlobalMem;
  /* CUDA 13 removed cudaDeviceProp::memoryClockRate; the attribute remains. Peak bandwidth is
   * two transfers per clock (DDR) times the bus width in bytes. */
  int memory_clock_khz = 0, bus_width_bits = 0;
  if (cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, 0) != cudaSuccess ||
      cudaDeviceGetAttribute(&bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, 0) != cudaSuccess) {
    memory_clock_khz = bus_width_bits = 0;
    (void)cudaGetLastError();
  }
  device->peak_gbps = 2.0 * memory_clock_khz * 1e3 * (bus_width_bits / 8.0) / 1e9;
  /* Linux's HMM with NVIDIA's open kernel modules: a kernel may read pageable (malloc) memory. */
  if (cudaDeviceGetAttribute(&device->pageable_access, cudaDevAttrPageableMemoryAccess, 0) !=
      cudaSuccess) {
    device->pageable_access = 0;
    (void)cudaGetLastError();
  }
  cudaDriverGetVersion(&device->driver_version);
  cudaRuntimeGetVersion(&device->runtime_version);
}

void wb_require_device_memory(const wb_program *program, const wb_device *device, double bytes) {
  size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
    (void)cudaGetLastError();
    free_bytes = device->global_bytes;
  }
  /* On the simulator "device" memory is host memory too: both must fit in the machine at once. */
  double physical = physical_bytes();
  if (device->is_simulator && physical > 0 && host_bytes_required + bytes > 0.8 * physical)
    wb_usage_error(program,
                   "this size needs %.1f GiB of host and %.1f GiB of simulated device memory, "
                   "both in host memory here, but the machine has %.1f GiB",
                   host_bytes_required / 1073741824.0, bytes / 1073741824.0,
                   physical / 1073741824.0);
  if (bytes > 0.95 * (double)free_bytes)
    wb_usage_error(program, "this size needs %.1f GiB of device memory, but %s has %.1f GiB free",
                   bytes / 1073741824.0, device->name, (double)free_bytes / 1073741824.0);
}

/* ---- Reporting --------------------------------------------------------------------------- */

void wb_print_header(const wb_program *program, const wb_device *device, const wb_args *args) {
  if (args->quiet) return;
  wb_print_wrapped(stdout, "  ", "%s: %s\n", program->program, program->summary);
  if (device->is_simulator)
    wb_print_wrapped(stdout, "  ",
                     "device: CPU simulator (%d worker threads; timings say nothing about a GPU)\n",
                     device->multiprocessors);
  else if (device->name[0])
    wb_print_wrapped(
        stdout, "  ", "device: %s (compute capability %d.%d, %d SMs, peak %.0f GB/s)\n",
        device->name, device->major, device->minor, device->multiprocessors, device->peak_gbps);
  if (!device->is_simulator && device->pageable_access)
    wb_print_wrapped(stdout, NULL,
                     "  (this GPU reads pageable host memory (HMM): a kernel given a malloc pointer"
                     " runs, slowly, a page at a time; the simulator refuses it)\n");
  wb_print_wrapped(stdout, "  ", "size: n = %lld (%s), seed %llu, median of %d\n", args->n,
                   program->n_meaning, (unsigned long long)args->seed, args->repeat);
  if (args->sim_sized)
    wb_print_wrapped(stdout, NULL,
                     "  (a size for the simulator, done in seconds; a GPU run has n = %lld;"
                     " --n N sets it)\n",
                     program->default_n);
}

/* The columns add up to 80 with every field present (a label of up to 27 characters). */
void wb_print_figure(const wb_args *args, const char *label, double ms, double bytes,
                     const wb_device *device, double baseline_ms) {
  if (args->quiet) return;
  if (wb_sanitizer()) {
    static int said;
    if (!said)
      printf("  (no figures: nothing is timed under %s, which slows code down)\n", wb_sanitizer());
    said = 1;
    return;
  }
  printf("  %-27s %9.3f ms", label, ms);
  if (bytes > 0 && ms > 0) {
    double gbps = bytes / (ms * 1e-3) / 1e9;
    printf(" %7.1f GB/s", gbps);
    if (device && device->peak_gbps > 0 && !device->is_simulator)
      printf(" %3.0f%% peak", 100.0 * gbps / device->peak_gbps);
  }
  if (baseline_ms > 0 && ms > 0) printf(" %6.2fx vs CPU", baseline_ms / ms);
  printf("\n");
}

void wb_info(const wb_args *args, const char *fmt, ...) {
  if (args->quiet) return;
  va_list ap;
  va_start(ap, fmt);
  vprint_wrapped(stdout, NULL, fmt, ap); /* a long line wraps, indented under itself */
  va_end(ap);
}

static void input_digest_write(void); /* with wb_seeded_n, below */

int wb_finish(int passed, const char *reason) {
#ifdef CUSIM
  /* Resources the learner's code made and never released fail a check that would pass: a GPU
   * releases them at exit without a word, so only the simulator can say so (issue 24). */
  char leak[256], leak_hint[256];
  if (passed && cusim_task_leaks(leak, sizeof leak, leak_hint, sizeof leak_hint) > 0) {
    wb_print_wrapped(stdout, "    ", "  %s\n", leak_hint);
    passed = 0;
    reason = leak;
  }
#endif
  if (passed)
    printf("PASS\n");
  else
    printf("FAIL: %s\n", reason && *reason ? reason : "wrong result");
  fflush(stdout);
  input_digest_write();
  wb_verdict_write(passed, reason);
  return passed ? WB_EXIT_PASS : WB_EXIT_FAIL;
}

/* ---- The simulator's profiler -------------------------------------------------------------- */

void wb_profile_start(void) {
#ifdef CUSIM
  cusim_profile_begin();
#endif
}

int wb_profile_stop(const char *kernel, wb_profile *out) {
  memset(out, 0, sizeof *out);
#ifdef CUSIM
  struct cusim_profile_counts c;
  if (!cusim_profile_end(kernel, &c)) return 0;
  out->available = 1;
  out->launches = c.launches;
  out->global_load_requests = c.global_load_requests;
  out->global_load_sectors = c.global_load_sectors;
  out->global_load_ideal_sectors = c.global_load_ideal_sectors;
  out->global_store_requests = c.global_store_requests;
  out->global_store_sectors = c.global_store_sectors;
  out->global_store_ideal_sectors = c.global_store_ideal_sectors;
  out->shared_requests = c.shared_load_requests + c.shared_store_requests;
  out->bank_conflicts = c.bank_conflicts;
  out->active_lanes = c.requests ? (double)c.active_lanes / (double)c.requests : 0.0;
  out->atomics = c.atomics;
  out->barriers = c.barriers;
  out->occupancy = c.occupancy;
  out->branches = c.branches;
  out->divergent_branches = c.divergent_branches;
  return 1;
#else
  (void)kernel;
  return 0;
#endif
}

const char *wb_profile_unavailable(void) {
#ifdef CUSIM
  return cusim_profile_available() ? ""
                                   : "profile counts need the simulator's instrumentation "
                                     "(CUSIM_MEMCHECK is off)";
#else
  return "profile counts are not available on a GPU (the simulator counts them; "
         "ncu measures them): the check falls back to timing";
#endif
}

/* ---- Seeded sizes and the input digest ------------------------------------------------------ */

static long long input_size = -1;                     /* the last wb_seeded_n; -1: never asked */
static uint64_t input_digest = 0xCBF29CE484222325ULL; /* FNV-1a offset basis */
static int input_records = 0;

long long wb_seeded_n(const wb_program *program, const wb_args *args) {
  long long n = args->n;
  if (args->seed != 1 && args->n >= 2) {
    /* (n/2, n): never n itself, so a size a table knows (the shipped --n) is never checked */
    long long span = (args->n - 1) / 2;
    if (span < 1) span = 1;
    n = args->n - 1 - (long long)(wb_hash64(args->seed, 0x5EEDULL) % (uint64_t)span);
    if (n < program->min_n) n = program->min_n;
  }
  input_size = n;
  return n;
}

static const char *input_digest_path(void) { /* WB_INPUT_DIGEST, or NULL: no digest wanted */
  const char *path = getenv("WB_INPUT_DIGEST");
  return path && *path ? path : NULL;
}

void wb_input_record(const void *data, size_t bytes) {
  if (!input_digest_path()) return; /* a lesson's own run pays nothing for it */
  /* The first 64 bytes of each input: what the seed makes, whatever the size (two sizes of
   * data that ignores the seed share their first bytes) */
  const unsigned char *byte = data;
  if (bytes > 64) bytes = 64;
  for (size_t i = 0; i < bytes; ++i) input_digest = (input_digest ^ byte[i]) * 0x100000001B3ULL;
  ++input_records;
}

static void input_digest_write(void) {
  const char *path = input_digest_path();
  if (!path) return;
  FILE *file = fopen(path, "a");
  if (!file) return;
  fprintf(file, "size %lld data %016llx inputs %d\n", input_size, (unsigned long long)input_digest,
          input_records);
  fclose(file);
}
