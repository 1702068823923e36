/* Lesson 12 driver: checks your four sums of n floats against a Kahan sum in double, each within
 * a tolerance that follows from how many float additions its way makes, then your Monte Carlo pi
 * against the statistics of the estimate, and times everything. You do not need to edit this
 * file. */
#include "lesson.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const wb_program program = {
    .program = "12-reductions",
    .summary = "sum a large float array four ways, and estimate pi with cuRAND",
    .default_n = 1 << 27,     /* 134 million floats (512 MiB): long enough to time on a GPU */
    .sim_default_n = 1 << 22, /* 4 million: a few seconds on the simulator */
    .min_n = 1,
    .max_n = 1 << 30,
    .n_meaning = "floats summed, and points for pi",
    .default_repeat = 5,
};

enum {
  THREADS = 256,         /* threads per block, a multiple of the warp size */
  ODD_THREADS = 96,      /* the tree must also work with a block that is not a power of two */
  ATOMIC_LIMIT = 1 << 20 /* task 1 adds at most this many elements (one atomic each) */
};
#define UNIT_ROUNDOFF (FLT_EPSILON / 2) /* the largest relative error of one float addition */
#define PI 3.14159265358979323846

typedef struct {
  const float *d_in;
  float *d_total, *d_partials;
  unsigned long long *d_hits;
  int n, blocks, threads;
  uint64_t seed;
} context;

static void run_atomics(void *c_) {
  context *c = c_;
  CUDA_CHECK(sum_atomics(c->d_in, c->n < ATOMIC_LIMIT ? c->n : ATOMIC_LIMIT, c->d_total, c->blocks,
                         c->threads));
}
static void run_tree(void *c_) {
  context *c = c_;
  CUDA_CHECK(sum_tree(c->d_in, c->n, c->d_partials, c->d_total, c->blocks, c->threads));
}
static void run_shuffle(void *c_) {
  context *c = c_;
  CUDA_CHECK(sum_shuffle(c->d_in, c->n, c->d_total, c->blocks, c->threads));
}
static void run_cooperative_groups(void *c_) {
  context *c = c_;
  CUDA_CHECK(sum_cooperative_groups(c->d_in, c->n, c->d_total, c->blocks, c->threads));
}
static void run_pi(void *c_) {
  context *c = c_;
  CUDA_CHECK(count_pi_hits(c->n, c->seed, c->d_hits, c->blocks, c->threads));
}

/* Run one way with *d_total = 0 and return the float it left there. */
static float gpu_sum(context *c, void (*run)(void *)) {
  float total = 0.0f;
  CUDA_CHECK(cudaMemset(c->d_total, 0, sizeof(float)));
  run(c);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(&total, c->d_total, sizeof(float), cudaMemcpyDeviceToHost));
  return total;
}

/* A float sum is right when it is within the error bound of the additions that made it: a sum of
 * k terms added one after another is off by at most (k - 1) * u * (the sum of |terms|), u being
 * the unit roundoff. `additions` is the longest such chain in the way being checked. Never ==:
 * the order of the additions changes from run to run on a GPU, and with it the last bits. */
static int check_sum(const wb_args *args, const char *what, float got, double want, double abs_sum,
                     double additions) {
  double tolerance = 2.0 * additions * UNIT_ROUNDOFF * abs_sum + 1e-30;
  double error = fabs((double)got - want);
  int right = error <= tolerance; /* false for NaN */
  wb_info(args, "check: %-30s %s\n", what, right ? "yes" : "no");
  if (!right)
    printf("  got %.9g, want %.9g (off by %.3g, allowed %.3g)\n", got, want, error, tolerance);
  return right;
}

static int ceil_log2(long long value) {
  int bits = 0;
  while ((1LL << bits) < value) ++bits;
  return bits;
}

/* Enough blocks of THREADS to fill every multiprocessor (as in lesson 04), fewer for small n. */
static int grid_blocks(const wb_device *device, int n) {
  int per_multiprocessor = 0;
  if (cudaDeviceGetAttribute(&per_multiprocessor, cudaDevAttrMaxThreadsPerMultiProcessor, 0) !=
          cudaSuccess ||
      per_multiprocessor < THREADS)
    per_multiprocessor = 2048;
  int multiprocessors = device->multiprocessors > 0 ? device->multiprocessors : 1;
  int full = multiprocessors * (per_multiprocessor / THREADS);
  int needed = (n + THREADS - 1) / THREADS;
  return needed < full ? needed : full;
}

static void print_rate(const wb_args *args, const char *label, double ms, double samples) {
  wb_info(args, "  %-28s %10.3f ms  %10.3g samples/s\n", label, ms,
          ms > 0 ? samples / (ms * 1e-3) : 0.0);
}

static void run_cpu_pi(void *c_) {
  context *c = c_;
  (void)count_pi_hits_reference(c->n, c->seed);
}

int main(int argc, char **argv) {
  wb_args args;
  wb_parse_args(argc, argv, &program, &args);
  args.n = wb_seeded_n(&program, &args); /* --seed S: a size of its own (a grade uses one) */
  int n = (int)args.n;
  size_t bytes = (size_t)n * sizeof(float);
  wb_require_host_memory(&program, (double)bytes);

  wb_device device;
  wb_device_open(&device);
  wb_require_device_memory(&program, &device, (double)bytes + (1 << 20));
  wb_print_header(&program, &device, &args);

  float *in = malloc(bytes);
  if (!in) wb_usage_error(&program, "cannot allocate %zu bytes of host memory", bytes);
  wb_fill_f32(in, (size_t)n, args.seed, 0.0f, 1.0f);
  double want = sum_reference(in, n); /* all positive: also the sum of |terms| */
  int atomic_n = n < ATOMIC_LIMIT ? n : ATOMIC_LIMIT;
  double want_atomic = sum_reference(in, atomic_n);

  context c = {0};
  c.n = n, c.threads = THREADS, c.seed = args.seed, c.blocks = grid_blocks(&device, n);
  CUDA_CHECK(cudaMalloc((void **)&c.d_in, bytes));
  CUDA_CHECK(cudaMalloc((void **)&c.d_total, sizeof(float)));
  CUDA_CHECK(cudaMalloc((void **)&c.d_partials, (size_t)c.blocks * sizeof(float)));
  CUDA_CHECK(cudaMalloc((void **)&c.d_hits, sizeof(unsigned long long)));
  CUDA_CHECK(cudaMemcpy((void *)c.d_in, in, bytes, cudaMemcpyHostToDevice));
  wb_info(&args, "sum of %d float%s in [0, 1): %.9g (Kahan, in double)\n", n, n == 1 ? "" : "s",
          want);
  wb_info(&args, "grid: %d block%s of %d threads, each thread a grid-stride loop\n", c.blocks,
          c.blocks == 1 ? "" : "s", THREADS);

  /* Each way's longest chain of float additions: a thread's own grid-stride share, then the
   * steps that combine threads (a tree or shuffles: about log2 of their number), then the
   * atomics or the second pass that combine blocks (or tiles). */
  long long grid_threads = (long long)c.blocks * THREADS;
  double per_thread = (double)((n + grid_threads - 1) / grid_threads);
  double depth = ceil_log2(THREADS) + ceil_log2(c.blocks) + 2;

  int atomics_right = check_sum(&args, "1, atomics only", gpu_sum(&c, run_atomics), want_atomic,
                                want_atomic, atomic_n);
  if (atomic_n < n) wb_info(&args, "  (task 1 adds only the first %d elements)\n", atomic_n);

  int tree_right = check_sum(&args, "2, tree, 256 threads a block", gpu_sum(&c, run_tree), want,
                             want, per_thread + depth + c.blocks);
  context odd = c; /* a block that is not a power of two, and more blocks */
  odd.threads = ODD_THREADS;
  odd.blocks = (n + ODD_THREADS - 1) / ODD_THREADS < c.blocks ? (n + ODD_THREADS - 1) / ODD_THREADS
                                                              : c.blocks;
  double odd_per_thread = (double)((n + (long long)odd.blocks * ODD_THREADS - 1) /
                                   ((long long)odd.blocks * ODD_THREADS));
  int odd_right = check_sum(&args, "2, tree, 96 threads a block", gpu_sum(&odd, run_tree), want,
                            want, odd_per_thread + depth + 2 + odd.blocks);
  if (tree_right && !odd_right)
    printf("  the tree is right with 256 threads a block, not with 96: does each level also\n"
           "  fold an odd number of cells?\n");
  tree_right = tree_right && odd_right;

  int shuffle_right = check_sum(&args, "3, warp shuffles", gpu_sum(&c, run_shuffle), want, want,
                                per_thread + depth + c.blocks);
  int groups_right = check_sum(&args, "4, cooperative groups", gpu_sum(&c, run_cooperative_groups),
                               want, want, per_thread + depth + c.blocks * (THREADS / 32));

  /* Monte Carlo pi: the estimate 4 * hits / n has a standard deviation of
   * 4 * sqrt(p * (1 - p) / n), p = pi / 4; a right kernel is within 6 of them (and the Philox
   * sequence is fixed by the seed, so a right kernel passes every time, on any backend). */
  unsigned long long hits = 0;
  CUDA_CHECK(cudaMemset(c.d_hits, 0, sizeof hits));
  run_pi(&c);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(&hits, c.d_hits, sizeof hits, cudaMemcpyDeviceToHost));
  double estimate = 4.0 * (double)hits / n;
  double sigma = 4.0 * sqrt(PI / 4 * (1 - PI / 4) / n);
  long long cpu_hits = count_pi_hits_reference(n, args.seed);
  int pi_right = hits <= (unsigned long long)n && fabs(estimate - PI) <= 6.0 * sigma;
  wb_info(&args, "check: 5, pi, %d point%s: %.6f (CPU %.6f, 6 sigma %.2g): %s\n", n,
          n == 1 ? "" : "s", estimate, 4.0 * (double)cpu_hits / n, 6.0 * sigma,
          pi_right ? "yes" : "no");
  if (!pi_right)
    wb_print_wrapped(stdout, "  ",
                     "  %llu hits from %d points: is each point counted once (one atomicAdd a "
                     "tile), and does each thread draw its own points (its index as the Philox "
                     "subsequence)?\n",
                     hits, n);

  /* Figures: only for right answers. */
  if (atomics_right && tree_right && shuffle_right && groups_right && pi_right) {
    double read = (double)bytes;
    double atomics_ms = wb_time_cuda_ms(run_atomics, &c, 1, args.repeat);
    double tree_ms = wb_time_cuda_ms(run_tree, &c, 1, args.repeat);
    double shuffle_ms = wb_time_cuda_ms(run_shuffle, &c, 1, args.repeat);
    double groups_ms = wb_time_cuda_ms(run_cooperative_groups, &c, 1, args.repeat);
    double pi_ms = wb_time_cuda_ms(run_pi, &c, 1, args.repeat);
    double cpu_pi_ms = wb_time_host_ms(run_cpu_pi, &c, 0, 1);
    wb_info(&args, "figures (GB/s counts the %d floats read once):\n", n);
    char label[64];
    snprintf(label, sizeof label, "1, atomics (%d floats)", atomic_n);
    wb_print_figure(&args, label, atomics_ms, (double)atomic_n * sizeof(float), &device, 0);
    wb_print_figure(&args, "2, tree + second pass", tree_ms, read, &device, 0);
    wb_print_figure(&args, "3, warp shuffles", shuffle_ms, read, &device, 0);
    wb_print_figure(&args, "4, cooperative groups", groups_ms, read, &device, 0);
    print_rate(&args, "5, pi on the GPU (Philox)", pi_ms, n);
    print_rate(&args, "5, pi on the CPU, 1 thread", cpu_pi_ms, n);
  }

  CUDA_CHECK(cudaFree((void *)c.d_in));
  CUDA_CHECK(cudaFree(c.d_total));
  CUDA_CHECK(cudaFree(c.d_partials));
  CUDA_CHECK(cudaFree(c.d_hits));
  free(in);
  if (!atomics_right) return wb_finish(0, "the atomics-only sum is wrong (task 1: atomicAdd)");
  if (!tree_right)
    return wb_finish(0, "the tree sum is wrong (task 2: __syncthreads, __syncwarp, odd sizes)");
  if (!shuffle_right)
    return wb_finish(0, "the shuffle sum is wrong (task 3: __shfl_down_sync, offsets 16 to 1)");
  if (!groups_right)
    return wb_finish(0, "the cooperative groups sum is wrong (task 4: cg::reduce, atomicAdd)");
  if (!pi_right)
    return wb_finish(0, "the estimate of pi is off (task 5: count, reduce, add, own points)");
  return wb_finish(1, NULL);
}
