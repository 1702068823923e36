/* Lesson 11 driver: checks your stencil against the CPU on n * n floats, then the naive and your
 * tiled matrix multiply on an n x n square and on a non-square shape, and times them side by
 * side. You do not need to edit this file. */
#include "lesson.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const wb_program program = {
    .program = "11-shared-memory",
    .summary = "a halo stencil and a tiled matrix multiply in shared memory",
    .default_n = 4096,    /* 4096 x 4096 matrices: large enough to time on a GPU */
    .sim_default_n = 256, /* one naive multiply of 4096 takes hours on the simulator */
    .min_n = 1,
    .max_n = 16384,
    .n_meaning = "matrix side; n * n floats in the stencil",
    .default_repeat = 5,
};

/* Above this many multiply-adds the CPU checks a sample of rows of C, not all of them. */
#define FULL_CHECK_LIMIT 2e8
enum {
  SAMPLED_ROWS = 16,
  PROFILE_SIDE = 64 /* check 4's matrices: whole tiles */
};

typedef struct {
  const float *d_in, *d_a, *d_b;
  float *d_out, *d_c;
  int length, m, n, k;
} context;

static void run_stencil(void *c_) {
  context *c = c_;
  CUDA_CHECK(stencil_1d(c->d_in, c->d_out, c->length));
}

static void run_naive(void *c_) {
  context *c = c_;
  CUDA_CHECK(matmul_naive(c->d_a, c->d_b, c->d_c, c->m, c->n, c->k));
}

static void run_tiled(void *c_) {
  context *c = c_;
  CUDA_CHECK(matmul_tiled(c->d_a, c->d_b, c->d_c, c->m, c->n, c->k));
}

static int count_nan(const float *values, size_t count) {
  int nans = 0;
  for (size_t i = 0; i < count; ++i) nans += values[i] != values[i];
  return nans;
}

/* Some NaN, not all: some threads wrote, but one read a cell of shared memory before it was set. */
static void report_nans(int nans, int count) {
  if (nans && nans < count)
    printf("  %d of %d results are NaN: a thread read a cell of shared memory that no thread had\n"
           "  written yet (on the simulator, unwritten shared memory holds NaN)\n",
           nans, count);
}

/* The stencil's launch failed on the simulator: one symptom, a read of a window cell before it
 * holds its value, has two causes in two tasks. The simulator's report tells which: "data race"
 * when another thread does store the cell, but with no barrier between (task 2: the
 * __syncthreads() before the sum), "uninitialized" when no thread stores it at all (task 1: a
 * halo or the tile left unloaded). Its own "(task N)" names the first line it cites, the store
 * in task 1 for the race and the read in task 2 for the unloaded cell: the wrong task both
 * times. Returns the FAIL line, or NULL for every other failure (CUDA_CHECK reports those). */
static const char *stencil_failure_task(cudaError_t status) {
#ifdef CUSIM
  const char *report = status == cudaErrorLaunchFailure ? cusim_last_error_message() : "";
  if (strstr(report, "__shared__") && strstr(report, "stencil_kernel")) {
    if (strstr(report, "data race") && strstr(report, "(task 1)") && strstr(report, "(task 2)"))
      return "task 2: the sum read the window before it was whole: __syncthreads() first";
    if (strstr(report, "uninitialized"))
      return "task 1: a cell of the window that no thread stored: the tile, or a halo";
  }
#else
  (void)status;
#endif
  return NULL;
}

/* Fill C with 0xFF bytes (NaN), multiply, copy back, and compare with the CPU: every row when
 * the product is small, otherwise SAMPLED_ROWS rows spread over C (the first and the last
 * included). Returns the number of wrong elements (all of C when the launch was refused). */
static long long check_matmul(const char *what, context *c, void (*run)(void *), float *got,
                              float *want, const float *a, const float *b) {
  size_t elements = (size_t)c->m * c->n;
  CUDA_CHECK(cudaMemset(c->d_c, 0xFF, elements * sizeof(float)));
  run(c);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(got, c->d_c, elements * sizeof(float), cudaMemcpyDeviceToHost));
  /* float sums of k products of numbers in [-1, 1) drift by about sqrt(k) * 6e-8 each: far
   * inside this tolerance; a missing or doubled tile is off by far more. */
  double atol = 1e-6 * c->k, rtol = 1e-5;
  if ((double)c->m * c->n * c->k <= FULL_CHECK_LIMIT) {
    matmul_reference(a, b, want, c->m, c->n, c->k, 0, c->m);
    return (long long)wb_compare_f32(what, got, want, elements, atol, rtol);
  }
  for (int s = 0; s < SAMPLED_ROWS; ++s) {
    int row = (int)((long long)s * (c->m - 1) / (SAMPLED_ROWS - 1));
    size_t at = (size_t)row * c->n;
    matmul_reference(a, b, want, c->m, c->n, c->k, row, 1);
    char label[64];
    snprintf(label, sizeof label, "%s, row %d", what, row);
    long long wrong =
        (long long)wb_compare_f32(label, got + at, want + at, (size_t)c->n, atol, rtol);
    if (wrong) return wrong;
  }
  return 0;
}

/* Check 4: both multiplies on PROFILE_SIDE-square matrices with the profiler on. Returns 1 when
 * the tiled kernel makes at least TILE / 2 times fewer global load requests. */
static int check_tiling(const wb_args *args) {
  size_t bytes = (size_t)PROFILE_SIDE * PROFILE_SIDE * sizeof(float);
  context p = {.m = PROFILE_SIDE, .n = PROFILE_SIDE, .k = PROFILE_SIDE};
  CUDA_CHECK(cudaMalloc((void **)&p.d_a, bytes));
  CUDA_CHECK(cudaMalloc((void **)&p.d_b, bytes));
  CUDA_CHECK(cudaMalloc((void **)&p.d_c, bytes));
  CUDA_CHECK(cudaMemset((void *)p.d_a, 0, bytes));
  CUDA_CHECK(cudaMemset((void *)p.d_b, 0, bytes));
  wb_profile naive, tiled;
  wb_profile_start();
  run_naive(&p);
  wb_profile_stop("matmul_naive_kernel", &naive);
  wb_profile_start();
  run_tiled(&p);
  wb_profile_stop("matmul_tiled_kernel", &tiled);
  double fewer = tiled.global_load_requests
                     ? (double)naive.global_load_requests / (double)tiled.global_load_requests
                     : 0.0;
  int ok = fewer >= TILE / 2.0;
  wb_info(args, "check 4: the profiler, %d x %d times %d x %d, global load requests:\n",
          PROFILE_SIDE, PROFILE_SIDE, PROFILE_SIDE, PROFILE_SIDE);
  wb_info(args, "  naive %llu, tiled %llu: %.1f times fewer (TILE = %d): %s\n",
          naive.global_load_requests, tiled.global_load_requests, fewer, TILE, ok ? "yes" : "no");
  CUDA_CHECK(cudaFree((void *)p.d_a));
  CUDA_CHECK(cudaFree((void *)p.d_b));
  CUDA_CHECK(cudaFree(p.d_c));
  return ok;
}

static void print_matmul_figure(const wb_args *args, const char *label, double ms,
                                const context *c) {
  double flops = 2.0 * c->m * c->n * c->k; /* one multiply and one add per term */
  wb_info(args, "  %-28s %10.3f ms  %8.1f GFLOP/s\n", label, ms,
          ms > 0 ? flops / (ms * 1e-3) / 1e9 : 0.0);
}

int main(int argc, char **argv) {
  wb_args args;
  wb_parse_args(argc, argv, &program, &args);
  args.n = wb_seeded_n(&program, &args); /* --seed S: a size of its own (a grade uses one) */
  int side = (int)args.n;
  int length = side * side;
  /* The non-square product: (side/2 + 1) x (side + 5) times (side + 5) x (side/3 + 2); none of
   * these sides is a multiple of TILE for the usual sizes. */
  int m2 = side / 2 + 1, k2 = side + 5, n2 = side / 3 + 2;
  size_t square = (size_t)length * sizeof(float);
  /* The matrices' buffers hold the larger of the two shapes (the non-square one, for tiny n). */
  size_t matrix = square, shapes[3] = {(size_t)m2 * k2, (size_t)k2 * n2, (size_t)m2 * n2};
  for (int s = 0; s < 3; ++s)
    if (shapes[s] * sizeof(float) > matrix) matrix = shapes[s] * sizeof(float);
  wb_require_host_memory(&program, 3.0 * (double)square + 4.0 * (double)matrix);

  wb_device device;
  wb_device_open(&device);
  wb_require_device_memory(&program, &device, 2.0 * (double)square + 3.0 * (double)matrix);
  wb_print_header(&program, &device, &args);

  float *in = malloc(square), *out = malloc(square), *want = malloc(matrix);
  float *a = malloc(matrix), *b = malloc(matrix), *got = malloc(matrix);
  if (!in || !out || !want || !a || !b || !got)
    wb_usage_error(&program, "cannot allocate %zu bytes of host memory", 2 * square + 4 * matrix);
  wb_fill_f32(in, (size_t)length, args.seed, 0.0f, 1.0f);
  wb_fill_f32(a, matrix / sizeof(float), args.seed + 1, -1.0f, 1.0f);
  wb_fill_f32(b, matrix / sizeof(float), args.seed + 2, -1.0f, 1.0f);

  context c = {0};
  c.length = length;
  CUDA_CHECK(cudaMalloc((void **)&c.d_in, square));
  CUDA_CHECK(cudaMalloc((void **)&c.d_out, square));
  CUDA_CHECK(cudaMalloc((void **)&c.d_a, matrix));
  CUDA_CHECK(cudaMalloc((void **)&c.d_b, matrix));
  CUDA_CHECK(cudaMalloc((void **)&c.d_c, matrix));
  CUDA_CHECK(cudaMemcpy((void *)c.d_in, in, square, cudaMemcpyHostToDevice));

  /* Check 1: the stencil, on an output full of NaN so that elements nobody wrote show up. */
  CUDA_CHECK(cudaMemset(c.d_out, 0xFF, square));
  run_stencil(&c);
  cudaError_t stencil_status = cudaDeviceSynchronize();
  if (stencil_status == cudaErrorSynchronizationError) {
    /* The simulator reports a barrier that some threads of a block never reach. */
    wb_print_wrapped(stdout, "  ",
                     "the stencil's __syncthreads() was not reached by every thread of a block: "
                     "a barrier inside if (i < n), or an early return, leaves the idle threads "
                     "outside it (on a GPU: a hang, or a barrier that does not wait)\n");
    return wb_finish(0, "not every thread of a block reached __syncthreads() (tasks 1 and 2)");
  }
  const char *stencil_task = stencil_failure_task(stencil_status);
  if (stencil_task) return wb_finish(0, stencil_task);
  CUDA_CHECK(stencil_status);
  CUDA_CHECK(cudaMemcpy(out, c.d_out, square, cudaMemcpyDeviceToHost));
  stencil_reference(in, want, length);
  long long stencil_wrong = (long long)wb_compare_f32("out", out, want, (size_t)length, 1e-5, 1e-5);
  int stencil_nans = count_nan(out, (size_t)length);
  int stencil_blocks = (length + STENCIL_BLOCK - 1) / STENCIL_BLOCK;
  wb_info(&args, "check 1: stencil of radius %d over %d float%s, %d block%s of %d: %s\n", RADIUS,
          length, length == 1 ? "" : "s", stencil_blocks, stencil_blocks == 1 ? "" : "s",
          STENCIL_BLOCK, stencil_wrong ? "no" : "yes");
  report_nans(stencil_nans, length);

  /* Check 2: both multiplies, square then non-square. */
  c.m = side, c.n = side, c.k = side;
  CUDA_CHECK(cudaMemcpy((void *)c.d_a, a, matrix, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy((void *)c.d_b, b, matrix, cudaMemcpyHostToDevice));
  long long naive_wrong = check_matmul("C (naive)", &c, run_naive, got, want, a, b);
  long long tiled_wrong = check_matmul("C (tiled)", &c, run_tiled, got, want, a, b);
  wb_info(&args, "check 2: %d x %d times %d x %d, naive: %s, tiled: %s\n", side, side, side, side,
          naive_wrong ? "no" : "yes", tiled_wrong ? "no" : "yes");
  if (tiled_wrong) report_nans(count_nan(got, (size_t)side * side), side * side);
  if (!tiled_wrong) { /* the same numbers, read as A (m2 x k2) and B (k2 x n2) */
    context shape = c;
    shape.m = m2, shape.n = n2, shape.k = k2;
    tiled_wrong = check_matmul("C (tiled)", &shape, run_tiled, got, want, a, b);
    wb_info(&args, "check 3: %d x %d times %d x %d, tiled: %s\n", m2, k2, k2, n2,
            tiled_wrong ? "no" : "yes");
  }

  /* Figures: only for right answers (a wrong kernel's speed means nothing). */
  if (!stencil_wrong && !naive_wrong && !tiled_wrong) {
    double stencil_ms = wb_time_cuda_ms(run_stencil, &c, 1, args.repeat);
    double naive_ms = wb_time_cuda_ms(run_naive, &c, 1, args.repeat);
    double tiled_ms = wb_time_cuda_ms(run_tiled, &c, 1, args.repeat);
    wb_info(&args, "figures (%d floats through the stencil, %d x %d matrices):\n", length, side,
            side);
    wb_print_figure(&args, "stencil", stencil_ms, 2.0 * (double)square, &device, 0);
    print_matmul_figure(&args, "naive multiply", naive_ms, &c);
    print_matmul_figure(&args, "tiled multiply", tiled_ms, &c);
    if (tiled_ms > 0)
      wb_info(&args, "the tiled multiply is %.2fx as fast as the naive one\n", naive_ms / tiled_ms);
  }

  /* Check 4, on the simulator: the profiler counts the global load requests of both multiplies
   * on a product of whole tiles, and the tiled kernel must make about TILE times fewer (exactly
   * TILE here: per TILE values of k, a warp makes 2 requests where the naive one makes 2 TILE).
   * On a GPU the profiler is not available, and the figures above show the difference. After
   * the figures: the profiler stays on once started, and would slow the timed runs. */
  int tiling = 1;
  if (!stencil_wrong && !naive_wrong && !tiled_wrong && device.is_simulator) {
    if (wb_profile_unavailable()[0])
      wb_info(&args, "check 4: %s; the tiling is not checked\n", wb_profile_unavailable());
    else
      tiling = check_tiling(&args);
  }

  CUDA_CHECK(cudaFree((void *)c.d_in));
  CUDA_CHECK(cudaFree(c.d_out));
  CUDA_CHECK(cudaFree((void *)c.d_a));
  CUDA_CHECK(cudaFree((void *)c.d_b));
  CUDA_CHECK(cudaFree(c.d_c));
  free(in);
  free(out);
  free(want);
  free(a);
  free(b);
  free(got);
  if (stencil_wrong)
    return wb_finish(0,
                     "the stencil is wrong (tasks 1 and 2: halos, __syncthreads before reading)");
  if (naive_wrong) return wb_finish(0, "the naive multiply is wrong (it is given: was it edited?)");
  if (tiled_wrong)
    return wb_finish(0, "the tiled multiply is wrong (task 3: padded tiles, two __syncthreads)");
  if (!tiling)
    return wb_finish(0, "task 3: the tiled kernel reads A and B from global memory, not shared");
  return wb_finish(1, NULL);
}
