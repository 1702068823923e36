/* Lesson 09 driver: checks your OpenMP Monte Carlo pi and 3D "add 2" against the serial
 * references, then times them on 1, 2, 4, ... threads up to the machine's cores. You do not
 * need to edit this file. */
#include "lesson.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const wb_program program = {
    .program = "09-prange-openmp",
    .summary = "OpenMP Monte Carlo pi and 3D add-2 on 1, 2, 4, ... threads",
    .default_n = 512,
    .min_n = 1,
    .max_n = 4096,
    .n_meaning = "edge N of the N x N x N/2 array of doubles; pi takes 4 samples per element",
    .default_repeat = 3,
    .accepts_threads = 1,
};

/* The pi check allows this many standard errors (see the README: a correct count is further
 * off than 6 standard errors about twice in a billion seeds). */
static const double allowed_standard_errors = 6.0;
static const double pi = 3.14159265358979323846;

typedef struct {
  long long samples;
  uint64_t seed;
  long long hits;
} pi_context;

typedef struct {
  const double *in;
  double *out;
  shape3 shape;
} add_two_context;

static void time_pi_reference(void *context) {
  pi_context *c = context;
  c->hits = pi_count_reference(c->samples, c->seed);
}
static void time_pi_parallel(void *context) {
  pi_context *c = context;
  c->hits = pi_count_parallel(c->samples, c->seed);
}
static void time_add_two_seed_order(void *context) {
  add_two_context *c = context;
  add_two_seed_order(c->in, c->out, c->shape);
}
static void time_add_two_serial(void *context) {
  add_two_context *c = context;
  add_two_serial(c->in, c->out, c->shape);
}
static void time_add_two_parallel(void *context) {
  add_two_context *c = context;
  add_two_parallel(c->in, c->out, c->shape);
}

/* Thread counts for the table: 1, 2, 4, ... and the largest, e.g. 1 2 4 8 12 for 12. */
static int thread_counts(int max_threads, int *counts) {
  int count = 0;
  for (int t = 1; t < max_threads; t *= 2) counts[count++] = t;
  counts[count++] = max_threads;
  return count;
}

/* All bytes 0xFF is a NaN: an element the function never wrote shows up in the compare. */
static void poison(double *data, size_t count) {
  memset(data, 0xFF, count * sizeof *data);
}

/* Is `got` the count of a loop off by one: samples 0 to samples (i <= samples), or 1 to samples
 * (i from 1)? */
static int off_by_one_count(long long got, long long samples, uint64_t seed) {
  long long one_more = pi_count_reference(samples + 1, seed);
  return got == one_more || got == one_more - pi_sample_inside(seed, 0);
}

/* How many bytes of a guard filled with 0xA5 were written. */
static size_t guard_written(const void *guard, size_t count) {
  const unsigned char *byte = guard;
  size_t written = 0;
  for (size_t i = 0; i < count; ++i) written += byte[i] != 0xA5;
  return written;
}

int main(int argc, char **argv) {
  wb_args args;
  wb_parse_args(argc, argv, &program, &args);
  args.n = wb_seeded_n(&program, &args); /* --seed S: a size of its own (a grade uses one) */
  size_t edge = (size_t)args.n;
  shape3 shape = {edge, edge,
                  (edge + 1) / 2}; /* the Python original's 1024 x 1024 x 512 is --n 1024 */
  size_t count = shape3_count(shape);
  long long samples = 4 * (long long)count;
  size_t bytes = count * sizeof(double);
  /* in and got get a guard of one plane after their last element: an index computed with nx and
   * ny swapped writes there (the driver sees it) and not on the heap's own bookkeeping. */
  size_t guard = shape.ny * shape.nx * sizeof(double);
  wb_require_host_memory(&program, 3.0 * (double)bytes + 2.0 * (double)guard); /* in, want, got */

  int processors = omp_get_num_procs();
  int max_threads = args.cpu_threads > 0 ? args.cpu_threads : processors;
  int counts[16]; /* 1, 2, 4, ... up to 4096 and the largest: at most 14 */
  int rows = thread_counts(max_threads, counts);

  wb_device cpu_only; /* no GPU here: the header prints no device line */
  memset(&cpu_only, 0, sizeof cpu_only);
  wb_print_header(&program, &cpu_only, &args);
  wb_info(&args, "cpu: %d processors; threads used: up to %d\n", processors, max_threads);
  wb_info(&args, "pi: %lld samples; array: %zu x %zu x %zu doubles (%.1f MiB each)\n", samples,
          shape.nz, shape.ny, shape.nx, (double)bytes / 1048576.0);

  double *in = malloc(bytes + guard), *want = malloc(bytes), *got = malloc(bytes + guard);
  if (!in || !want || !got)
    wb_usage_error(&program, "cannot allocate %.1f MiB of host memory", 3.0 * bytes / 1048576.0);

  /* Check 1: the parallel count equals the serial one exactly, on every thread count. With a
   * counter-based generator that is what must happen: same samples, same hits, any split. */
  pi_context reference = {samples, args.seed, 0};
  time_pi_reference(&reference);
  int pi_same = 1, pi_none = 0, wrong_on_threads = 0, whole_loop = 0, off_by_one = 0;
  long long parallel_hits = 0;
  /* A race loses updates only when two threads run at the same instant, which a busy machine does
   * not allow every time: small counts, which cost little, are tried a few times. */
  int tries = samples <= (1LL << 22) ? 4 : 1;
  for (int r = 0; r < rows; ++r) {
    omp_set_num_threads(counts[r]);
    for (int t = 0; t < tries; ++t) {
      parallel_hits = pi_count_parallel(samples, args.seed);
      if (parallel_hits != reference.hits) {
        printf("  pi on %d thread%s: got %lld hits, want %lld (the serial count)\n", counts[r],
               counts[r] == 1 ? "" : "s", parallel_hits, reference.hits);
        pi_same = 0;
        if (parallel_hits == 0) pi_none = 1;
        if (counts[r] > 1 && parallel_hits == reference.hits * counts[r]) whole_loop = counts[r];
        if (!wrong_on_threads && off_by_one_count(parallel_hits, samples, args.seed))
          off_by_one = 1;
        if (!wrong_on_threads) wrong_on_threads = counts[r]; /* the first */
        break;
      }
    }
  }
  /* A loop that is off by one (i <= samples, or i from 1 to samples) changes the count only when
   * the sample it adds and the one it drops differ, which the full size may not show. Two small
   * counts are chosen so that they do: k where sample k is inside, and k where samples k and 0
   * differ. */
  long long small[2] = {0, 0};
  for (long long k = 1; k < 256 && pi_same && (!small[0] || !small[1]); ++k) {
    int inside = pi_sample_inside(args.seed, (uint64_t)k);
    if (!small[0] && inside) small[0] = k;
    if (!small[1] && inside != pi_sample_inside(args.seed, 0)) small[1] = k;
  }
  for (int s = 0; s < 2 && pi_same; ++s) {
    if (!small[s]) continue;
    long long want_small = pi_count_reference(small[s], args.seed);
    long long got_small = pi_count_parallel(small[s], args.seed);
    if (got_small != want_small) {
      printf("  pi on %lld samples: got %lld hits, want %lld (the serial count)\n", small[s],
             got_small, want_small);
      pi_same = 0;
      off_by_one = off_by_one_count(got_small, small[s], args.seed);
    }
  }
  wb_info(&args, "check 1: pi_count_parallel == the serial count on every thread count: %s\n",
          pi_same ? "yes" : "no");

  /* Check 2: the estimate is within a few standard errors of pi. Each sample is a coin that
   * lands inside with p = pi/4, so 4 * hits / samples has standard error 4 sqrt(p(1-p)/N). */
  double p = pi / 4.0;
  double estimate = 4.0 * (double)parallel_hits / (double)samples;
  double standard_error = 4.0 * sqrt(p * (1.0 - p) / (double)samples);
  double off_by = fabs(estimate - pi) / standard_error;
  int pi_close = off_by <= allowed_standard_errors;
  wb_info(&args,
          "check 2: estimate %.9f, off by %.3g = %.2f standard errors of %.3g "
          "(at most %.0f allowed): %s\n",
          estimate, fabs(estimate - pi), off_by, standard_error, allowed_standard_errors,
          pi_close ? "yes" : "no");
  if (!pi_close && args.quiet)
    printf("  pi estimate %.9f is %.2f standard errors from pi\n", estimate, off_by);

  /* Check 3 and 4: adding 2 to a double is exact, so the arrays must match bit for bit. */
  wb_fill_f64(in, count, args.seed, -1000.0, 1000.0);
  add_two_reference(in, want, shape);
  poison(got, count);
  memset(got + count, 0xA5, guard);
  add_two_serial(in, got, shape);
  size_t serial_past_end = guard_written(got + count, guard);
  size_t serial_wrong = wb_compare_f64("add_two_serial out", got, want, count, 0.0, 0.0);
  if (serial_past_end)
    wb_print_wrapped(stdout, "  ",
                     "  add_two_serial wrote past the end of out: is the index (z * ny + y) * nx "
                     "+ x, with x the fastest, and does each loop run to its own bound?\n");
  serial_wrong += serial_past_end;
  wb_info(&args, "check 3: add_two_serial gives in + 2 exactly: %s\n", serial_wrong ? "no" : "yes");
  size_t parallel_wrong = 0, parallel_past_end = 0;
  for (int r = 0; r < rows && !parallel_wrong; ++r) {
    omp_set_num_threads(counts[r]);
    poison(got, count);
    memset(got + count, 0xA5, guard);
    add_two_parallel(in, got, shape);
    parallel_past_end = guard_written(got + count, guard);
    parallel_wrong = wb_compare_f64("add_two_parallel out", got, want, count, 0.0, 0.0);
    if (parallel_past_end)
      wb_print_wrapped(stdout, "  ",
                       "  add_two_parallel wrote past the end of out: is the index (z * ny + y) "
                       "* nx + x, with x the fastest?\n");
    parallel_wrong += parallel_past_end;
    if (parallel_wrong)
      printf("  (add_two_parallel on %d thread%s)\n", counts[r], counts[r] == 1 ? "" : "s");
  }
  wb_info(&args, "check 4: add_two_parallel gives in + 2 exactly on every thread count: %s\n",
          parallel_wrong ? "no" : "yes");

  /* Figures. Every function above already ran once, so caches and pages are warm: no warm-up. */
  int all_right = pi_same && pi_close && !serial_wrong && !parallel_wrong;
  if (all_right && !args.quiet) {
    add_two_context array = {in, got, shape};
    double moved = 2.0 * (double)bytes; /* read in, write out */
    printf("one thread:\n");
    double pi_serial_ms = wb_time_host_ms(time_pi_reference, &reference, 0, args.repeat);
    wb_print_figure(&args, "pi, serial (reference.c)", pi_serial_ms, 0, NULL, 0);
    double seed_order_ms = wb_time_host_ms(time_add_two_seed_order, &array, 0, args.repeat);
    wb_print_figure(&args, "add 2, Python's order x,z,y", seed_order_ms, moved, NULL, 0);
    double serial_ms = wb_time_host_ms(time_add_two_serial, &array, 0, args.repeat);
    wb_print_figure(&args, "add 2, your order (task 2)", serial_ms, moved, NULL, 0);
    printf("  the Python original's order takes %.1fx as long as yours\n",
           seed_order_ms / serial_ms);

    printf("OpenMP (tasks 1 and 3), speedup over the same code on 1 thread:\n");
    printf("  %7s %12s %8s %12s %10s %8s\n", "threads", "pi (ms)", "speedup", "add 2 (ms)", "GB/s",
           "speedup");
    double pi_one = 0.0, add_one = 0.0;
    for (int r = 0; r < rows; ++r) {
      omp_set_num_threads(counts[r]);
      pi_context parallel = {samples, args.seed, 0};
      double pi_ms = wb_time_host_ms(time_pi_parallel, &parallel, 0, args.repeat);
      double add_ms = wb_time_host_ms(time_add_two_parallel, &array, 0, args.repeat);
      if (r == 0) pi_one = pi_ms, add_one = add_ms;
      printf("  %7d %12.3f %7.2fx %12.3f %10.1f %7.2fx\n", counts[r], pi_ms,
             pi_ms > 0 ? pi_one / pi_ms : 0.0, add_ms, add_ms > 0 ? moved / (add_ms * 1e6) : 0.0,
             add_ms > 0 ? add_one / add_ms : 0.0);
    }
  }

  free(in);
  free(want);
  free(got);
  if (pi_none) return wb_finish(0, "pi_count_parallel counted no hits at all (task 1)");
  if (whole_loop)
    wb_print_wrapped(stdout, "  ",
                     "  every thread ran the whole loop (task 1): on %d threads the count is %d "
                     "times the serial one. #pragma omp parallel for shares the loop among the "
                     "threads; #pragma omp parallel alone gives each thread all of it.\n",
                     whole_loop, whole_loop);
  else if (off_by_one)
    wb_print_wrapped(stdout, "  ",
                     "  the loop must draw samples 0 to samples - 1, each once (for i = 0; i < "
                     "samples; ++i): a loop off by one can match at the full size by luck.\n");
  else if (!pi_same && wrong_on_threads == 1)
    wb_print_wrapped(stdout, "  ",
                     "Wrong on one thread too: are the samples drawn from i, as "
                     "pi_sample_inside(seed, i)? rand() or any generator with state gives "
                     "samples that depend on how the threads take turns.\n");
  else if (!pi_same)
    wb_print_wrapped(stdout, "  ",
                     "Right on one thread, wrong on several: a count that changes from run to "
                     "run is a race. Is hits in a reduction(+ : hits) clause?\n");
  if (!pi_same)
    return wb_finish(0, "pi_count_parallel's count differs from the serial count (task 1)");
  if (!pi_close) return wb_finish(0, "the pi estimate is too far from pi (see check 2; task 1)");
  if (serial_past_end) return wb_finish(0, "add_two_serial wrote past the end of out (task 2)");
  if (serial_wrong) return wb_finish(0, "add_two_serial's output is not in + 2 (task 2)");
  if (parallel_past_end) return wb_finish(0, "add_two_parallel wrote past the end of out (task 3)");
  if (parallel_wrong) return wb_finish(0, "add_two_parallel's output is not in + 2 (task 3)");
  return wb_finish(1, NULL);
}
