/* Lesson 08 driver: checks the Python original's one-launch-per-number way (on the first numbers
 * only) and your one-thread-per-number kernel against a sieve of Eratosthenes, flag by flag and by
 * count, then times them against the CPU. You do not need to edit this file. */
#include "lesson.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const wb_program program = {
    .program = "08-primes",
    .summary = "flag the primes below n, one GPU thread per number, and count them",
    .default_n = 10000000, /* the Python original's 10 million */
    .sim_default_n = 1000000,
    .min_n = 1,
    .max_n = 1 << 30,
    .n_meaning = "numbers checked, 0 to n-1",
    .default_repeat = 5,
};

/* One launch (and two copies) per number is slow on a GPU and slower on the simulator: that way
 * is run on the first ONE_LAUNCH_LIMIT numbers only. */
enum { ONE_LAUNCH_LIMIT = 2000, LISTED_LIMIT = 20 };

typedef struct {
  unsigned char *flags, *d_flags;
  unsigned int *d_count;
  int n;
} timing_context;

static void run_one_launch_per_number(void *context) {
  timing_context *c = context;
  CUDA_CHECK(primes_one_launch_per_number(c->flags, c->n));
}

static void run_on_device(void *context) {
  timing_context *c = context;
  CUDA_CHECK(primes_on_device(c->d_flags, c->n, c->d_count));
}

static void run_sieve(void *context) {
  timing_context *c = context;
  (void)primes_sieve(c->flags, c->n);
}

static void run_trial_division(void *context) {
  timing_context *c = context;
  (void)primes_trial_division(c->flags, c->n);
}

/* "2 3 5 7": the numbers below `below` that flags calls prime. */
static void list_primes(const wb_args *args, const char *who, const unsigned char *flags,
                        int below) {
  char line[1024];
  int length = snprintf(line, sizeof line, "         %s says the primes below %d are:", who, below);
  for (int k = 0; k < below && length < (int)sizeof line - 16; ++k)
    if (flags[k] == 1) length += snprintf(line + length, sizeof line - (size_t)length, " %d", k);
  wb_info(args, "%s\n", line);
}

int main(int argc, char **argv) {
  wb_args args;
  wb_parse_args(argc, argv, &program, &args);
  args.n = wb_seeded_n(&program, &args); /* --seed S: a size of its own (a grade uses one) */
  int n = (int)args.n;
  wb_require_host_memory(&program, 2.0 * n);

  wb_device device;
  wb_device_open(&device);
  wb_require_device_memory(&program, &device, (double)n + 1 + sizeof(unsigned int));
  wb_print_header(&program, &device, &args);

  unsigned char *want = malloc((size_t)n), *got = malloc((size_t)n);
  if (!want || !got) wb_usage_error(&program, "cannot allocate %d bytes of host memory", 2 * n);
  unsigned int want_count = primes_sieve(want, n);
  wb_info(&args, "the sieve of Eratosthenes finds %u prime%s below %d\n", want_count,
          WB_PLURAL(want_count), n);

  /* Check 1: the Python original's way, one launch of one thread per number, on the first numbers.
   */
  int first = n < ONE_LAUNCH_LIMIT ? n : ONE_LAUNCH_LIMIT;
  memset(got, 0xFF, (size_t)first);
  CUDA_CHECK(primes_one_launch_per_number(got, first));
  size_t wrong_one_launch = wb_compare_u8("one_launch_flags", got, want, (size_t)first);
  wb_info(&args, "check 1: one launch per number, numbers 0 to %d%s: %s\n", first - 1,
          first < n ? " (only these: it is slow)" : "", wrong_one_launch ? "no" : "yes");
  list_primes(&args, "one launch per number", got, first < LISTED_LIMIT ? first : LISTED_LIMIT);

  /* Check 2: one thread per number, every flag and the count. 0xFF goes into every flag
   * beforehand, so a flag nobody wrote shows up as 255, and into one guard byte after the last
   * flag, which only a loop that runs one number too far overwrites. */
  unsigned char *d_flags = NULL;
  unsigned int *d_count = NULL, got_count = 0;
  CUDA_CHECK(cudaMalloc((void **)&d_flags, (size_t)n + 1));
  CUDA_CHECK(cudaMalloc((void **)&d_count, sizeof *d_count));
  CUDA_CHECK(cudaMemset(d_flags, 0xFF, (size_t)n + 1));
  CUDA_CHECK(primes_on_device(d_flags, n, d_count));
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(got, d_flags, (size_t)n, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&got_count, d_count, sizeof got_count, cudaMemcpyDeviceToHost));
  size_t wrong_flags = wb_compare_u8("flags", got, want, (size_t)n);
  size_t unwritten = 0; /* flags still 0xFF: no thread reached them (task 3) */
  for (int i = 0; i < n; ++i) unwritten += got[i] == 0xFF;
  int past_end = (int)wb_fence_written(d_flags + n, 1, 1);
  if (past_end) {
    wb_print_wrapped(stdout, "  ",
                     "  flags[%d], one past the end of the array, was written: the loop must "
                     "stop at n - 1\n",
                     n);
    ++wrong_flags;
  }
  wb_info(&args, "check 2: one thread per number, all %d flag%s: %s\n", n, WB_PLURAL(n),
          wrong_flags ? "no" : "yes");
  list_primes(&args, "one thread per number", got, n < LISTED_LIMIT ? n : LISTED_LIMIT);
  int count_right = got_count == want_count;
  if (!count_right) printf("  count: got %u, want %u\n", got_count, want_count);
  /* Too many: an atomic that works loses nothing, so some numbers were counted more than once,
   * by threads whose loops overlap (task 3) or by an add of a running total (task 4). */
  int counted_twice = !count_right && !wrong_flags && got_count > want_count;
  if (counted_twice)
    wb_print_wrapped(stdout, "  ",
                     "  more than the %u primes: numbers counted by more than one thread? Each "
                     "thread starts at blockIdx.x * blockDim.x + threadIdx.x and steps by the "
                     "whole grid, gridDim.x * blockDim.x (task 3), and adds its own count once "
                     "(task 4)\n",
                     want_count);
  wb_info(&args, "check 3: the count of primes below %d is %u: %s\n", n, want_count,
          count_right ? "yes" : "no");

  if (!wrong_one_launch && !wrong_flags && count_right) {
    wb_info(&args, "times (speed-ups against the CPU trial division of the Python original):\n");
    timing_context host = {got, NULL, NULL, n};
    /* Trial division is the slow one: timed once, after no warm-up. */
    double trial_ms = wb_time_host_ms(run_trial_division, &host, 0, 1);
    wb_print_figure(&args, "CPU trial division (once)", trial_ms, 0, NULL, 0);
    size_t wrong_trial = wb_compare_u8("trial_division", got, want, (size_t)n);
    if (wrong_trial)
      return wb_finish(0, "the CPU trial division disagrees with the sieve (task 2)");
    wb_print_figure(&args, "CPU sieve", wb_time_host_ms(run_sieve, &host, 1, args.repeat), 0, NULL,
                    trial_ms);

    timing_context few = {got, NULL, NULL, first};
    double one_launch_ms = wb_time_host_ms(run_one_launch_per_number, &few, 1, args.repeat);
    char label[64];
    snprintf(label, sizeof label, "GPU one launch each (%d)", first);
    wb_print_figure(&args, label, one_launch_ms, 0, NULL, 0);
    if (first > 2)
      wb_info(&args,
              "         %.1f us per number: the launches and copies alone would take %.1f s for "
              "all %d numbers\n",
              1e3 * one_launch_ms / (first - 2), 1e-3 * one_launch_ms / (first - 2) * (n - 2), n);

    timing_context device_context = {NULL, d_flags, d_count, n};
    wb_print_figure(&args, "GPU one thread per number",
                    wb_time_cuda_ms(run_on_device, &device_context, 1, args.repeat), 0, &device,
                    trial_ms);
  }

  CUDA_CHECK(cudaFree(d_flags));
  CUDA_CHECK(cudaFree(d_count));
  free(want);
  free(got);
  if (wrong_one_launch)
    return wb_finish(0, "one launch per number gives wrong flags: the for...else bug (task 1)");
  if (past_end) return wb_finish(0, "a flag past the end was written (task 3: number < n)");
  if (unwritten) return wb_finish(0, "some flags were never written (task 3: the loop)");
  if (wrong_flags) return wb_finish(0, "is_prime is wrong for some numbers (task 2)");
  if (counted_twice)
    return wb_finish(0, "the count is too large: numbers counted twice (task 3 or 4)");
  if (!count_right) return wb_finish(0, "the count of primes is wrong (task 4)");
  return wb_finish(1, NULL);
}
