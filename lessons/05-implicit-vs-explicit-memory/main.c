/* Lesson 05 driver: runs out[i] = in[i] + 2 seven ways, checks each against the CPU reference,
 * checks that each kind of memory is what it claims to be, and prints one table: way, time,
 * effective bandwidth, correct or not. You do not need to edit this file.
 *
 * Every way is timed the same way: the input starts in host memory (the driver writes it there
 * before each run, untimed), and the clock stops once the host has touched every page of the
 * result, as a program that uses the result would. */
#include "lesson.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const wb_program program = {
    .program = "05-implicit-vs-explicit-memory",
    .summary = "add 2 to every element, moving the data seven ways",
    .default_n = 1 << 25, /* 32 Mi doubles: 256 MiB in, 256 MiB out */
    .sim_default_n = 1 << 22,
    .min_n = 1,
    .max_n = 1 << 30,
    .n_meaning = "number of doubles",
    .default_repeat = 5,
};

enum kind { IN_PLACE, PREFETCHED, EXPLICIT, EXPLICIT_NEW_OUTPUT };

typedef struct {
  const char *name;
  enum kind kind;
  double *host_in, *host_out; /* where the host writes the input and reads the result */
  double *dev_in, *dev_out;   /* what the kernel gets */
} way;

typedef struct {
  const char *name;
  double ms;          /* median, 0 when not timed */
  const char *result; /* "yes", "no", or why it did not run */
} row;

enum { WAYS = 7 };
static row table[WAYS];
static int rows = 0;
static char problems[WAYS][160];

static void add_row(const char *name, double ms, const char *result) {
  table[rows].name = name;
  table[rows].ms = ms;
  table[rows].result = result;
  ++rows;
}

/* Read one double per 4 KiB page: enough to bring every page of managed memory back to the
 * host, and next to nothing for memory that is already there. */
static double touch_pages(const double *data, int n) {
  double sum = 0.0;
  for (int i = 0; i < n; i += 512) sum += data[i];
  return sum + data[n - 1];
}
/* A silent second look (the harness's compare prints what it finds). */
static volatile double sink;

static cudaError_t run_way(way *w, int n, int checking) {
  switch (w->kind) {
  case IN_PLACE:
    return run_in_place(w->dev_in, w->dev_out, n);
  case PREFETCHED:
    return run_managed_prefetched(w->dev_in, w->dev_out, n);
  case EXPLICIT:
    return run_explicit(w->host_in, w->host_out, w->dev_in, w->dev_out, n);
  case EXPLICIT_NEW_OUTPUT:
    /* Like Numba's copy_to_host() with no argument: a new host array every time. */
    w->host_out = malloc((size_t)n * sizeof(double));
    if (!w->host_out) return cudaErrorMemoryAllocation;
    /* When checking, NaN in it, so that unwritten elements show (timed runs leave it fresh). */
    if (checking) memset(w->host_out, 0xFF, (size_t)n * sizeof(double));
    return run_explicit(w->host_in, w->host_out, w->dev_in, w->dev_out, n);
  }
  return cudaErrorInvalidValue;
}

/* Does every element still hold the 0xFF bytes the driver filled `out` with? */
static int still_filled(const double *out, int n) {
  const unsigned char *bytes = (const unsigned char *)out;
  for (size_t i = 0; i < (size_t)n * sizeof(double); ++i)
    if (bytes[i] != 0xFF) return 0;
  return 1;
}

/* Check one way, then time it; adds its row to the table. */
static void check_and_time(way *w, const double *input, const double *want, int n,
                           const wb_args *args) {
  size_t bytes = (size_t)n * sizeof(double);
  char *problem = problems[rows];
  if (w->host_in != input) memcpy(w->host_in, input, bytes); /* the data starts on the host */
  if (w->kind != EXPLICIT_NEW_OUTPUT) memset(w->host_out, 0xFF, bytes); /* NaN: "not written" */

  /* The task whose function runs this way: run_in_place, run_managed_prefetched, run_explicit. */
  int task = w->kind == IN_PLACE ? 2 : w->kind == PREFETCHED ? 3 : 4;
  cudaError_t status = run_way(w, n, 1);
  if (status != cudaSuccess) {
    snprintf(problem, 160, "%s (task %d)", cudaGetErrorName(status), task);
    wb_print_wrapped(stdout, "  ", "%s: %s: %s\n", w->name, cudaGetErrorName(status),
                     cudaGetErrorString(status));
    if (status == cudaErrorIllegalAddress || status == cudaErrorLaunchFailure) {
      /* The context is lost (a GPU keeps this error for the rest of the process): stop here. */
      wb_print_wrapped(stdout, "  ",
                       "way %c: the kernel touched memory it cannot reach, and no later CUDA "
                       "call can succeed. Does it get device pointers (dev_in, dev_out, or the "
                       "managed arrays), never a host array? (task %d)\n",
                       w->name[0], task);
      snprintf(problem, 160, "way %c: %s (task %d: device pointers)", w->name[0],
               cudaGetErrorName(status), task);
      exit(wb_finish(0, problem));
    }
    (void)cudaGetLastError(); /* clear it, so the next way starts clean */
    if (w->kind == EXPLICIT_NEW_OUTPUT) free(w->host_out);
    add_row(w->name, 0, problem);
    return;
  }
  if (w->kind == EXPLICIT && still_filled(w->host_out, n)) {
    /* Not one element changed: rows of NaNs would hide the simple reason. */
    printf("way %c: out was never written: is the copy back missing? (task 4)\n", w->name[0]);
    add_row(w->name, 0, "out never written (task 4)");
    return;
  }
  char what[96];
  snprintf(what, sizeof what, "way %c: out", w->name[0]); /* the name starts with its number */
  size_t wrong = wb_compare_f64(what, w->host_out, want, (size_t)n, 0.0, 0.0);
  if (wrong) {
    /* Was the work right but not finished? Wait for everything and look again. */
    CUDA_CHECK(cudaDeviceSynchronize());
    int late = wb_count_mismatches_f64(w->host_out, want, (size_t)n, 0.0, 0.0) == 0;
    if (late)
      wb_print_wrapped(
          stdout, NULL,
          "way %c: the result was right only after a later cudaDeviceSynchronize(): your "
          "function returned before the kernel had finished (task %d: no copy waits for it)\n",
          w->name[0], task);
    if (w->kind == EXPLICIT_NEW_OUTPUT) free(w->host_out);
    snprintf(problem, 160, late ? "not waited for (task %d)" : "no (task %d)", task);
    add_row(w->name, 0, problem);
    return;
  }
  if (w->kind == EXPLICIT_NEW_OUTPUT) free(w->host_out);

  double *times = malloc(sizeof(double) * (size_t)args->repeat);
  if (!times) wb_usage_error(&program, "out of host memory");
  for (int r = 0; r < args->repeat; ++r) {
    if (w->host_in != input) memcpy(w->host_in, input, bytes); /* untimed: back on the host */
    double start = wb_now_ms();
    CUDA_CHECK(run_way(w, n, 0));
    sink = touch_pages(w->host_out, n);
    times[r] = wb_now_ms() - start;
    if (w->kind == EXPLICIT_NEW_OUTPUT) free(w->host_out);
  }
  add_row(w->name, wb_median(times, args->repeat), "yes");
  free(times);
}

/* Is `pointer` the kind of memory it should be? (cudaPointerGetAttributes tells managed, pinned
 * or mapped host, device and plain host memory apart.) */
static int memory_is(const void *pointer, enum cudaMemoryType expected, const char *way_name,
                     const char *what) {
  struct cudaPointerAttributes attributes;
  memset(&attributes, 0, sizeof attributes);
  cudaError_t status = cudaPointerGetAttributes(&attributes, pointer);
  if (status != cudaSuccess) (void)cudaGetLastError();
  if (status == cudaSuccess && attributes.type == expected) return 1;
  const char *names[] = {"ordinary (pageable) host memory", "pinned host memory", "device memory",
                         "managed memory"};
  printf("way %c: %s is %s, not %s\n", way_name[0], what,
         status == cudaSuccess && attributes.type <= 3 ? names[attributes.type] : "unknown memory",
         names[expected]);
  return 0;
}

static void print_table(const wb_args *args, int n) {
  if (args->quiet) return;
  double moved = 2.0 * (double)n * sizeof(double); /* in to the device, the result back */
  printf("  %-44s %10s  %10s  %s\n", "way", "time", "effective", "correct");
  for (int r = 0; r < rows; ++r) {
    if (table[r].ms > 0)
      printf("  %-44s %7.3f ms  %5.1f GB/s  %s\n", table[r].name, table[r].ms,
             moved / (table[r].ms * 1e-3) / 1e9, table[r].result);
    else
      printf("  %-44s  %s\n", table[r].name, table[r].result); /* no figures: fits 80 */
  }
  printf("  (effective: 2 x %d x 8 bytes, in and out, over the time)\n", n);
}

int main(int argc, char **argv) {
  wb_args args;
  wb_parse_args(argc, argv, &program, &args);
  args.n = wb_seeded_n(&program, &args); /* --seed S: a size of its own (a grade uses one) */
  int n = (int)args.n;
  size_t bytes = (size_t)n * sizeof(double);
  wb_require_host_memory(&program, 5.0 * (double)bytes);

  wb_device device;
  wb_device_open(&device);
  /* Managed memory the kernel touches must fit on the device (it is not oversubscribed here). */
  wb_require_device_memory(&program, &device, 2.0 * (double)bytes);
  wb_print_header(&program, &device, &args);
  wb_set_max_reported(3); /* several ways may fail at once: keep the list short */

  double *input = malloc(bytes), *output = malloc(bytes), *want = malloc(bytes);
  if (!input || !output || !want)
    wb_usage_error(&program, "cannot allocate %zu bytes of host memory", 3 * bytes);
  wb_fill_f64(input, (size_t)n, args.seed, 0.0, 1.0);
  add_two_reference(input, want, n);
  double start;

  /* Ways 1 and 2: managed memory. */
  way managed = {"1 managed, migrated on demand", IN_PLACE, NULL, NULL, NULL, NULL};
  start = wb_now_ms();
  CUDA_CHECK(managed_alloc(&managed.host_in, &managed.host_out, (size_t)n));
  double managed_alloc_ms = wb_now_ms() - start;
  int managed_ok = managed.host_in && managed.host_out &&
                   memory_is(managed.host_in, cudaMemoryTypeManaged, managed.name, "in") &&
                   memory_is(managed.host_out, cudaMemoryTypeManaged, managed.name, "out");
  if (managed_ok) {
    managed.dev_in = managed.host_in; /* one pointer, both sides */
    managed.dev_out = managed.host_out;
    check_and_time(&managed, input, want, n, &args);
    managed.name = "2 managed + cudaMemPrefetchAsync";
    managed.kind = PREFETCHED;
    check_and_time(&managed, input, want, n, &args);
  } else {
    if (!managed.host_in || !managed.host_out)
      printf("ways 1, 2: managed_alloc gave no arrays (task 1)\n");
    add_row("1 managed, migrated on demand", 0, "not managed memory (task 1)");
    add_row("2 managed + cudaMemPrefetchAsync", 0, "not managed memory (task 1)");
  }
  if (managed_ok) {
    CUDA_CHECK(cudaFree(managed.host_in));
    CUDA_CHECK(cudaFree(managed.host_out));
  }

  /* Ways 3 to 6: device arrays and explicit copies. */
  double *dev_in = NULL, *dev_out = NULL;
  CUDA_CHECK(cudaMalloc((void **)&dev_in, bytes));
  CUDA_CHECK(cudaMalloc((void **)&dev_out, bytes));
  way pageable = {
      "3 cudaMemcpy, pageable (malloc) host arrays", EXPLICIT, input, output, dev_in, dev_out};
  check_and_time(&pageable, input, want, n, &args);
  pageable.name = "4 the same, result into a new host array";
  pageable.kind = EXPLICIT_NEW_OUTPUT;
  check_and_time(&pageable, input, want, n, &args);

  way pinned = {"5 cudaMemcpy, pinned (cudaMallocHost)", EXPLICIT, NULL, NULL, dev_in, dev_out};
  start = wb_now_ms();
  CUDA_CHECK(pinned_alloc(&pinned.host_in, &pinned.host_out, (size_t)n));
  double pinned_alloc_ms = wb_now_ms() - start;
  if (pinned.host_in && pinned.host_out &&
      memory_is(pinned.host_in, cudaMemoryTypeHost, pinned.name, "host_in") &&
      memory_is(pinned.host_out, cudaMemoryTypeHost, pinned.name, "host_out")) {
    check_and_time(&pinned, input, want, n, &args);
    CUDA_CHECK(cudaFreeHost(pinned.host_in));
    CUDA_CHECK(cudaFreeHost(pinned.host_out));
  } else {
    if (!pinned.host_in || !pinned.host_out)
      printf("way 5: pinned_alloc gave no arrays (task 5)\n");
    add_row(pinned.name, 0, "not pinned memory (task 5)");
  }

  way registered = {
      "6 cudaMemcpy, malloc + cudaHostRegister", EXPLICIT, NULL, NULL, dev_in, dev_out};
  /* Arrays that exist already, to be pinned in place: ordinary malloc'd arrays. The driver keeps
   * the byte ranges registered, not pages, so two arrays that share a page both register. */
  registered.host_in = malloc(bytes);
  registered.host_out = malloc(bytes);
  if (!registered.host_in || !registered.host_out)
    wb_usage_error(&program, "cannot allocate %zu bytes of host memory", 2 * bytes);
  start = wb_now_ms();
  CUDA_CHECK(pin_existing(registered.host_in, registered.host_out, (size_t)n));
  double register_ms = wb_now_ms() - start;
  int registered_ok =
      memory_is(registered.host_in, cudaMemoryTypeHost, registered.name, "host_in") &&
      memory_is(registered.host_out, cudaMemoryTypeHost, registered.name, "host_out");
  /* The whole array, not just its start: cudaHostRegister counts bytes, not elements. */
  int registered_whole = registered_ok &&
                         memory_is(registered.host_in + n - 1, cudaMemoryTypeHost, registered.name,
                                   "host_in[n - 1]") &&
                         memory_is(registered.host_out + n - 1, cudaMemoryTypeHost, registered.name,
                                   "host_out[n - 1]");
  if (registered_whole) {
    check_and_time(&registered, input, want, n, &args);
    CUDA_CHECK(cudaHostUnregister(registered.host_in)); /* before free(), always */
    CUDA_CHECK(cudaHostUnregister(registered.host_out));
  } else {
    add_row(registered.name, 0,
            registered_ok ? "part pinned (task 6: bytes)" : "not pinned (task 6)");
    /* Whatever was pinned is unpinned before free(); what was not gives an error, ignored. */
    (void)cudaHostUnregister(registered.host_in);
    (void)cudaHostUnregister(registered.host_out);
    (void)cudaGetLastError();
  }
  free(registered.host_in);
  free(registered.host_out);
  CUDA_CHECK(cudaFree(dev_in));
  CUDA_CHECK(cudaFree(dev_out));

  /* Way 7: mapped host memory, no copies at all. */
  way mapped = {"7 mapped zero-copy (cudaHostAllocMapped)", IN_PLACE, NULL, NULL, NULL, NULL};
  start = wb_now_ms();
  CUDA_CHECK(
      mapped_alloc(&mapped.host_in, &mapped.host_out, &mapped.dev_in, &mapped.dev_out, (size_t)n));
  double mapped_alloc_ms = wb_now_ms() - start;
  if (mapped.host_in && mapped.host_out && mapped.dev_in && mapped.dev_out &&
      memory_is(mapped.host_in, cudaMemoryTypeHost, mapped.name, "host_in") &&
      memory_is(mapped.host_out, cudaMemoryTypeHost, mapped.name, "host_out")) {
    check_and_time(&mapped, input, want, n, &args);
    CUDA_CHECK(cudaFreeHost(mapped.host_in));
    CUDA_CHECK(cudaFreeHost(mapped.host_out));
  } else {
    if (!mapped.host_in || !mapped.dev_in) printf("way 7: mapped_alloc gave no arrays (task 7)\n");
    add_row(mapped.name, 0, "not mapped memory (task 7)");
  }

  print_table(&args, n);
  wb_info(&args,
          "one-time costs of getting 2 x %.1f MiB (not in the times above):\n"
          "  cudaMallocManaged %.3f ms, cudaMallocHost %.3f ms, cudaHostRegister %.3f ms, "
          "cudaHostAlloc %.3f ms\n",
          (double)bytes / 1048576.0, managed_alloc_ms, pinned_alloc_ms, register_ms,
          mapped_alloc_ms);

  free(input);
  free(output);
  free(want);
  int failed = 0;
  for (int r = 0; r < rows; ++r) failed += strcmp(table[r].result, "yes") != 0;
  if (failed) {
    static char reason[96];
    int first = 0; /* the first way that failed: its row names the task */
    while (strcmp(table[first].result, "yes") == 0) ++first;
    snprintf(reason, sizeof reason, "%d of %d ways failed; the first: %.40s", failed, rows,
             table[first].result);
    return wb_finish(0, reason);
  }
  return wb_finish(1, NULL);
}
