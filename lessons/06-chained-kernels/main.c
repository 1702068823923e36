/* Lesson 06 driver: runs the three-kernel chain four ways (round trips to the host between the
 * kernels, data kept on the device with pageable and with pinned host memory, and chunks on
 * several streams), checks each against the CPU reference, and prints their times side by
 * side. You do not need to edit this file. */
#include "lesson.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const wb_program program = {
    .program = "06-chained-kernels",
    .summary = "three kernels in a chain: round trips, resident data, streams",
    .default_n = 1 << 25, /* 32 Mi doubles, 256 MiB */
    .sim_default_n = 1 << 22,
    .min_n = 1,
    .max_n = 1 << 30,
    .n_meaning = "number of doubles",
    .default_repeat = 5,
};

enum { STREAMS = 4, CHUNKS = 16 };

typedef enum { ROUND_TRIPS, ON_DEVICE, STREAMED } variant;

typedef struct {
  variant variant;
  const double *host_in;
  double *host_out;
  double *d_data;
  int n, chunk;
  const cudaStream_t *streams;
} context;

static cudaError_t run_variant(context *c) {
  switch (c->variant) {
  case ROUND_TRIPS:
    return chain_round_trips(c->host_in, c->host_out, c->d_data, c->n);
  case ON_DEVICE:
    return chain_on_device(c->host_in, c->host_out, c->d_data, c->n);
  case STREAMED:
    return chain_streamed(c->host_in, c->host_out, c->d_data, c->n, c->chunk, c->streams, STREAMS);
  }
  return cudaErrorInvalidValue;
}

static void timed_variant(void *c) {
  CUDA_CHECK(run_variant(c));
}

static void timed_cpu(void *c_) {
  context *c = c_;
  chain_reference(c->host_in, c->host_out, c->n);
}

static void timed_steps_only(void *c_) {
  context *c = c_;
  CUDA_CHECK(chain_all_steps(c->d_data, c->n, 0));
}

/* The streams belong to the driver, which uses them again for every call and destroys them at the
 * end. A handle that no longer answers cudaStreamQuery was destroyed by the function it was lent
 * to. (Using a destroyed handle is undefined on a GPU; the simulator reports it.) */
static int streams_alive = 1;

static int streams_still_alive(const cudaStream_t *streams) {
  for (int s = 0; s < STREAMS; ++s)
    if (cudaStreamQuery(streams[s]) == cudaErrorInvalidResourceHandle) {
      (void)cudaGetLastError();
      return 0;
    }
  return 1;
}

/* A silent second look (the harness's compare prints what it finds). */
typedef struct {
  char name[64];
  double ms;
  const char *result;
  int task; /* the task this way's result points at, when it is not right */
} row;

/* Check one variant (the host output starts as NaN, so anything not written shows up), then
 * time it if it is right. The result is compared straight after the call returns: the function
 * promises the result is in host memory by then. */
static void check_and_time(row *r, int number, context *c, const double *want,
                           const wb_args *args) {
  size_t bytes = (size_t)c->n * sizeof(double);
  memset(c->host_out, 0xFF, bytes);
  cudaError_t status = run_variant(c);
  r->ms = 0;
  /* Task 1 is the round trips, task 2 the resident data, task 3 the streams (task 4 waits). */
  r->task = c->variant == ROUND_TRIPS ? 1 : c->variant == ON_DEVICE ? 2 : 3;
  if (c->variant == STREAMED && !streams_still_alive(c->streams)) {
    streams_alive = 0;
    wb_print_wrapped(stdout, NULL,
                     "%s: the streams were destroyed inside chain_streamed: they are the "
                     "driver's, lent for the call and used again; wait for them, do not destroy "
                     "them (task 4)\n",
                     r->name);
    (void)cudaDeviceSynchronize();
    r->result = "streams gone";
    r->task = 4;
    return;
  }
  if (status != cudaSuccess) {
    wb_print_wrapped(stdout, NULL, "%s: %s: %s\n", r->name, cudaGetErrorName(status),
                     cudaGetErrorString(status));
    /* The simulator's report of two unordered operations on different streams. */
    if (c->variant == STREAMED && status == cudaErrorIllegalState)
      wb_print_wrapped(
          stdout, NULL,
          "%s: a stream race: are each chunk's copy in, kernels and copy out all on one "
          "stream (task 3)?\n",
          r->name);
    (void)cudaGetLastError();
    r->result = "error";
    return;
  }
  char what[96];
  snprintf(what, sizeof what, "way %d: out", number); /* the table numbers none; short */
  if (wb_compare_f64(what, c->host_out, want, (size_t)c->n, 0.0, 1e-14)) {
    r->result = "no";
    /* Was the work right but not finished? Wait for everything and look again. */
    CUDA_CHECK(cudaDeviceSynchronize());
    if (wb_count_mismatches_f64(c->host_out, want, (size_t)c->n, 0.0, 1e-14) == 0) {
      wb_print_wrapped(
          stdout, NULL,
          "%s: the result was right only after a later cudaDeviceSynchronize(): the function "
          "returned before its work was done (task %d?)\n",
          r->name, c->variant == STREAMED ? 4 : r->task);
      r->result = "not waited for";
      if (c->variant == STREAMED) r->task = 4;
    }
    return;
  }
  r->result = "yes";
  r->ms = wb_time_host_ms(timed_variant, c, 1, args->repeat);
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
  wb_require_device_memory(&program, &device, (double)bytes);
  wb_print_header(&program, &device, &args);
  wb_set_max_reported(3); /* several ways may fail at once: keep the list short */

  double *in = malloc(bytes), *out = malloc(bytes), *want = malloc(bytes);
  if (!in || !out || !want)
    wb_usage_error(&program, "cannot allocate %zu bytes of host memory", 3 * bytes);
  wb_fill_f64(in, (size_t)n, args.seed, -1.0, 1.0);
  chain_reference(in, want, n);

  double *d_data = NULL, *pinned_in = NULL, *pinned_out = NULL;
  CUDA_CHECK(cudaMalloc((void **)&d_data, bytes));
  /* Asynchronous copies overlap other work only from pinned memory: from pageable memory the
   * runtime must first stage the data through a pinned buffer of its own. */
  CUDA_CHECK(cudaMallocHost((void **)&pinned_in, bytes));
  CUDA_CHECK(cudaMallocHost((void **)&pinned_out, bytes));
  memcpy(pinned_in, in, bytes);
  cudaStream_t streams[STREAMS];
  for (int s = 0; s < STREAMS; ++s) CUDA_CHECK(cudaStreamCreate(&streams[s]));
  int chunk = (n + CHUNKS - 1) / CHUNKS;

  row rows[4];
  context c = {ROUND_TRIPS, in, out, d_data, n, chunk, streams};
  snprintf(rows[0].name, sizeof rows[0].name, "1 round trip around each kernel");
  check_and_time(&rows[0], 1, &c, want, &args);

  c.variant = ON_DEVICE;
  snprintf(rows[1].name, sizeof rows[1].name, "2 on the device, pageable host");
  check_and_time(&rows[1], 2, &c, want, &args);

  c.host_in = pinned_in;
  c.host_out = pinned_out;
  snprintf(rows[2].name, sizeof rows[2].name, "3 on the device, pinned host");
  check_and_time(&rows[2], 3, &c, want, &args);

  c.variant = STREAMED;
  snprintf(rows[3].name, sizeof rows[3].name, "4 %d chunks on %d streams, pinned",
           (n + chunk - 1) / chunk, STREAMS);
  check_and_time(&rows[3], 4, &c, want, &args);

  int failed = 0;
  for (int r = 0; r < 4; ++r) failed += strcmp(rows[r].result, "yes") != 0;

  if (!args.quiet) {
    c.host_in = in;
    c.host_out = out;
    double cpu_ms = wb_time_host_ms(timed_cpu, &c, 1, args.repeat);
    /* The steps alone, on data already on the device: the time a longer program pays per pass
     * when it keeps its data there. */
    double steps_ms = wb_time_cuda_ms(timed_steps_only, &c, 1, args.repeat);
    double baseline = rows[0].ms;
    printf("  %-34s %10s  %14s  %s\n", "way", "time", "vs round trips", "correct");
    printf("  %-34s %7.3f ms\n", "CPU loop (reference.c)", cpu_ms);
    for (int r = 0; r < 4; ++r) {
      if (rows[r].ms > 0 && baseline > 0)
        printf("  %-34s %7.3f ms  %13.2fx  %s\n", rows[r].name, rows[r].ms, baseline / rows[r].ms,
               rows[r].result);
      else if (rows[r].ms > 0)
        printf("  %-34s %7.3f ms  %14s  %s\n", rows[r].name, rows[r].ms, "-", rows[r].result);
      else
        printf("  %-34s %10s  %14s  %s\n", rows[r].name, "-", "-", rows[r].result);
    }
    if (baseline > 0)
      printf("  %-34s %7.3f ms  %13.2fx\n", "the 3 kernels alone, data resident", steps_ms,
             baseline / steps_ms);
    else
      printf("  %-34s %7.3f ms\n", "the 3 kernels alone, data resident", steps_ms);
  }

  for (int s = 0; s < STREAMS && streams_alive; ++s) CUDA_CHECK(cudaStreamDestroy(streams[s]));
  CUDA_CHECK(cudaFreeHost(pinned_in));
  CUDA_CHECK(cudaFreeHost(pinned_out));
  CUDA_CHECK(cudaFree(d_data));
  free(in);
  free(out);
  free(want);
  if (failed) {
    static char reason[96];
    int first = 0; /* the first way that failed names its task */
    while (strcmp(rows[first].result, "yes") == 0) ++first;
    snprintf(reason, sizeof reason, "%d of 4 ways failed; the first: %s (task %d)", failed,
             strcmp(rows[first].result, "no") == 0 ? "wrong" : rows[first].result,
             rows[first].task);
    return wb_finish(0, reason);
  }
  return wb_finish(1, NULL);
}
