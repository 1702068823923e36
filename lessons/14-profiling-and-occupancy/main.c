/* Lesson 14 driver: checks your occupancy function against the runtime's
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor on a table of launches, then your saxpy: its
 * results against the CPU, its launch against the occupancy target, and (on the simulator) the
 * profiler's counts for your kernel against the ideal; on a GPU it times it instead. You do not
 * need to edit this file. */
#include "lesson.h"

#include <stdio.h>
#include <stdlib.h>

static const wb_program program = {
    .program = "14-profiling-and-occupancy",
    .summary = "occupancy by hand and by the runtime; a profile",
    .default_n = 1 << 26, /* 64 Mi floats, 256 MiB a vector: long enough to time on a GPU */
    .sim_default_n = 1 << 20,
    .min_n = 1,
    .max_n = 1 << 28,
    .n_meaning = "floats per vector",
    .default_repeat = 5,
};

enum {
  PROFILE_N = 65536, /* the profiler's launch: 64 Ki floats, */
  PROFILE_GRID = 8,  /* 8 blocks of 256 threads: 32 floats per thread */
  PROFILE_BLOCK = 256,
  TARGET_PERCENT = 100, /* the occupancy task 2's launch must reach */
  SEEDED_ROWS = 4,      /* rows of check 1's tables a --seed run adds, in each table */
  REASON_SIZE = 160
};

/* The table: launches of the probe kernel, threads per block and dynamic shared memory. */
static const struct {
  int threads, shared;
} table[] = {{1, 0},    {32, 0},      {96, 0},      {100, 0},    {256, 0},   {1000, 0},
             {1024, 0}, {256, 16384}, {128, 16384}, {64, 10000}, {32, 7000}, {128, 49152}};
/* Rows with given registers per thread, where registers decide (or, at 16, where they leave the
 * warps to decide), against the occupancy calculator (reference.c): 36 registers are 1,152 a
 * warp, allocated as 1,280; 100 threads take 4 warps' registers. At every row the sub-partition
 * step of cuda_occupancy.h gives the same answer as the README's rule (checked below). */
static const struct {
  int threads, shared, registers;
} register_table[] = {{100, 0, 16}, {256, 0, 40}, {100, 0, 40},  {128, 0, 36},  {256, 0, 64},
                      {128, 0, 72}, {32, 0, 128}, {256, 0, 255}, {1024, 0, 128}};
enum {
  PROBE_ROWS = sizeof table / sizeof table[0],
  REGISTER_ROWS = sizeof register_table / sizeof register_table[0],
  ROWS = PROBE_ROWS + REGISTER_ROWS
};

static int attribute(enum cudaDeviceAttr which) {
  int value = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&value, which, 0));
  return value;
}

static sm_limits read_limits(void) {
  sm_limits sm = {
      .warp_size = attribute(cudaDevAttrWarpSize),
      .max_threads_per_sm = attribute(cudaDevAttrMaxThreadsPerMultiProcessor),
      .max_blocks_per_sm = attribute(cudaDevAttrMaxBlocksPerMultiprocessor),
      .registers_per_sm = attribute(cudaDevAttrMaxRegistersPerMultiprocessor),
      .register_unit = 256,
      .shared_per_sm = attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor),
      .shared_per_block = attribute(cudaDevAttrMaxSharedMemoryPerBlock),
      .shared_reserved = attribute(cudaDevAttrReservedSharedMemoryPerBlock),
      .shared_unit = 128,
  };
  return sm;
}

/* The percentage of the SM's warp slots that `blocks` blocks of `threads` fill. */
static int occupancy_percent(const sm_limits *sm, int blocks, int threads) {
  int warps = (threads + sm->warp_size - 1) / sm->warp_size;
  return 100 * blocks * warps / (sm->max_threads_per_sm / sm->warp_size);
}

/* One row of check 1: your blocks_per_sm against want, printed; 1 when they differ. */
static int check_row(const wb_args *args, const sm_limits *sm, int threads, int shared,
                     int registers, int want) {
  int got = blocks_per_sm(sm, threads, shared, registers);
  wb_info(args, "  %7d %9d %9d %6d %8d %9d%%%s\n", threads, shared, registers, got, want,
          occupancy_percent(sm, want, threads), got == want ? "" : "  <- wrong");
  return got != want;
}

/* Check 1: your blocks_per_sm against the runtime on every row of the probe kernel's table, and
 * against the occupancy calculator (reference.c) on every row with given registers. Returns the
 * number of rows that differ. */
static int check_table(const wb_args *args, const sm_limits *sm) {
  int registers = probe_registers(), wrong = 0;
  if (registers < 0) wb_usage_error(&program, "cudaFuncGetAttributes failed on the probe kernel");
  wb_info(args, "device limits per SM: %d threads, %d blocks, %d registers, %d B shared\n",
          sm->max_threads_per_sm, sm->max_blocks_per_sm, sm->registers_per_sm, sm->shared_per_sm);
  wb_info(args, "  (%d B reserved per block; a block may use %d B)\n", sm->shared_reserved,
          sm->shared_per_block);
  wb_info(args, "check 1: blocks per SM, yours against the runtime's\n");
  wb_info(args, "  %7s %9s %9s %6s %8s %10s\n", "threads", "shared B", "registers", "yours",
          "runtime", "occupancy");
  for (int r = 0; r < PROBE_ROWS; ++r) {
    int want = 0;
    CUDA_CHECK(probe_occupancy(table[r].threads, table[r].shared, &want));
    wrong += check_row(args, sm, table[r].threads, table[r].shared, registers, want);
  }
  wb_info(args, "check 1: given registers, yours against the occupancy calculator\n");
  wb_info(args, "  %7s %9s %9s %6s %8s %10s\n", "threads", "shared B", "registers", "yours",
          "expected", "occupancy");
  for (int r = 0; r < REGISTER_ROWS; ++r) {
    int threads = register_table[r].threads, shared = register_table[r].shared;
    int regs = register_table[r].registers;
    int want = occupancy_reference(sm, threads, shared, regs, 1);
    if (want != occupancy_reference(sm, threads, shared, regs, 0))
      wb_usage_error(&program, "register row %d: the sub-partition step changes the answer", r);
    wrong += check_row(args, sm, threads, shared, regs, want);
  }
  /* A grade's run with a seed of its own (--seed S, any S but 1) adds rows of that seed's own to
   * both tables, so an answer that looks up the shipped rows meets rows it has not seen. Only rows
   * where the README's rule and cuda_occupancy.h's sub-partition step agree. */
  if (args->seed != 1) {
    wb_info(args, "check 1: rows of this seed's own (--seed %llu)\n",
            (unsigned long long)args->seed);
    int added = 0;
    for (uint64_t k = 0; k < 1000 && added < 2 * SEEDED_ROWS; ++k) {
      uint64_t bits = wb_hash64(args->seed, 0x0CC0000 + k);
      int probe = added < SEEDED_ROWS; /* the probe kernel first, then given registers */
      int threads = 1 + (int)(bits % 1024);
      int shared = probe ? (int)((bits >> 10) % 49) * 1024 : 0;
      int regs = probe ? registers : 16 + (int)((bits >> 20) % 113); /* 16 to 128 */
      if (shared > sm->shared_per_block) continue;
      int want = occupancy_reference(sm, threads, shared, regs, 1);
      if (want != occupancy_reference(sm, threads, shared, regs, 0)) continue;
      if (probe) CUDA_CHECK(probe_occupancy(threads, shared, &want));
      int row[3] = {threads, shared, regs};
      wb_input_record(row, sizeof row);
      wrong += check_row(args, sm, threads, shared, regs, want);
      ++added;
    }
  }
  return wrong;
}

/* Check 2: your saxpy on n floats against the CPU, and the shape it launched. Returns the wrong
 * elements; fills *shape. */
static long long check_saxpy(const wb_args *args, int n, launch_shape *shape) {
  size_t bytes = (size_t)n * sizeof(float);
  float *x = malloc(bytes), *y = malloc(bytes), *got = malloc(bytes);
  if (!x || !y || !got) wb_usage_error(&program, "cannot allocate %zu bytes", 3 * bytes);
  wb_fill_f32(x, (size_t)n, args->seed, -1.0f, 1.0f);
  wb_fill_f32(y, (size_t)n, args->seed + 1, -1.0f, 1.0f);
  float *d_x, *d_y;
  CUDA_CHECK(cudaMalloc((void **)&d_x, bytes));
  CUDA_CHECK(cudaMalloc((void **)&d_y, bytes));
  CUDA_CHECK(cudaMemcpy(d_x, x, bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_y, y, bytes, cudaMemcpyHostToDevice));
  *shape = (launch_shape){0, 0};
  CUDA_CHECK(saxpy(2.0f, d_x, d_y, n, shape));
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(got, d_y, bytes, cudaMemcpyDeviceToHost));
  saxpy_reference(2.0f, x, y, n);
  long long wrong = (long long)wb_compare_f32("y", got, y, (size_t)n, 1e-6, 1e-6);
  wb_info(args, "check 2: saxpy on %d float%s: %s\n", n, WB_PLURAL(n), wrong ? "no" : "yes");
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  free(x);
  free(y);
  free(got);
  return wrong;
}

/* Check 2's launch: a whole number of warps per block, the target occupancy, and a grid that
 * fills the device (or covers n). Returns 1, or 0 with the reason. */
static int check_launch(const wb_args *args, const sm_limits *sm, int n, launch_shape shape,
                        char *reason) {
  int per_sm = 0, sms = attribute(cudaDevAttrMultiProcessorCount);
  if (shape.block <= 0 || shape.grid <= 0) {
    snprintf(reason, REASON_SIZE, "task 2: saxpy launched %d blocks of %d threads", shape.grid,
             shape.block);
    return 0;
  }
  CUDA_CHECK(saxpy_occupancy(shape.block, &per_sm));
  int percent = occupancy_percent(sm, per_sm, shape.block);
  wb_info(args, "check 2: blocks of %d threads, %d per SM: occupancy %d%% (target %d%%)\n",
          shape.block, per_sm, percent, TARGET_PERCENT);
  if (shape.block % sm->warp_size) {
    snprintf(reason, REASON_SIZE, "task 2: blocks of %d threads are not whole warps of %d",
             shape.block, sm->warp_size);
    return 0;
  }
  if (percent < TARGET_PERCENT) {
    snprintf(reason, REASON_SIZE, "task 2: occupancy %d%%, under the target %d%%", percent,
             TARGET_PERCENT);
    return 0;
  }
  long long needed = ((long long)n + shape.block - 1) / shape.block;
  long long full = (long long)per_sm * sms;
  long long want = needed < full ? needed : full;
  if (shape.grid < want) {
    snprintf(reason, REASON_SIZE,
             "task 2: a grid of %d blocks leaves SMs idle (%lld would fill them)", shape.grid,
             want);
    return 0;
  }
  return 1;
}

static double per_request(unsigned long long sectors, unsigned long long requests) {
  return requests ? (double)sectors / (double)requests : 0.0;
}

/* Check 3 on the simulator: the profiler's counts for saxpy_kernel on PROFILE_N floats in
 * PROFILE_GRID blocks of PROFILE_BLOCK. Returns 1 at the ideal, or 0 with the reason. */
static int check_profile(const wb_args *args, char *reason) {
  size_t bytes = PROFILE_N * sizeof(float);
  float *d_x, *d_y;
  CUDA_CHECK(cudaMalloc((void **)&d_x, bytes));
  CUDA_CHECK(cudaMalloc((void **)&d_y, bytes));
  CUDA_CHECK(cudaMemset(d_x, 0, bytes));
  CUDA_CHECK(cudaMemset(d_y, 0, bytes));
  wb_profile p;
  wb_profile_start();
  CUDA_CHECK(saxpy_shaped(2.0f, d_x, d_y, PROFILE_N,
                          (launch_shape){.block = PROFILE_BLOCK, .grid = PROFILE_GRID}));
  wb_profile_stop("saxpy_kernel", &p);
  double loads = per_request(p.global_load_sectors, p.global_load_requests);
  double loads_ideal = per_request(p.global_load_ideal_sectors, p.global_load_requests);
  double stores = per_request(p.global_store_sectors, p.global_store_requests);
  double stores_ideal = per_request(p.global_store_ideal_sectors, p.global_store_requests);
  wb_info(args, "check 3: the profiler, saxpy on %d floats in %d blocks of %d\n", PROFILE_N,
          PROFILE_GRID, PROFILE_BLOCK);
  wb_info(args, "  loads:  %llu requests, %.1f sectors/request, ideal %.1f\n",
          p.global_load_requests, loads, loads_ideal);
  wb_info(args, "  stores: %llu requests, %.1f sectors/request, ideal %.1f\n",
          p.global_store_requests, stores, stores_ideal);
  wb_info(args, "  active lanes per request: %.1f of 32\n", p.active_lanes);
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  if (!p.global_load_requests || !p.global_store_requests) {
    snprintf(reason, REASON_SIZE, "task 3: saxpy_kernel read or wrote nothing");
    return 0;
  }
  if (p.global_load_sectors > p.global_load_ideal_sectors ||
      p.global_store_sectors > p.global_store_ideal_sectors) {
    snprintf(reason, REASON_SIZE, "task 3: %.1f sectors/request, ideal %.1f: uncoalesced",
             loads > loads_ideal ? loads : stores,
             loads > loads_ideal ? loads_ideal : stores_ideal);
    return 0;
  }
  if (p.active_lanes < 32.0) {
    snprintf(reason, REASON_SIZE, "task 3: %.1f active lanes per request, not 32", p.active_lanes);
    return 0;
  }
  return 1;
}

static void run_saxpy(void *arg) {
  void **a = arg;
  launch_shape shape;
  CUDA_CHECK(saxpy(2.0f, a[0], a[1], *(int *)a[2], &shape));
}

int main(int argc, char **argv) {
  wb_args args;
  wb_parse_args(argc, argv, &program, &args);
  args.n = wb_seeded_n(&program, &args); /* --seed S: a size of its own (a grade uses one) */
  int n = (int)args.n;
  wb_require_host_memory(&program, 3.0 * (double)n * sizeof(float));

  wb_device device;
  wb_device_open(&device);
  wb_require_device_memory(&program, &device, 2.0 * (double)n * sizeof(float) + 2 * PROFILE_N);
  wb_print_header(&program, &device, &args);
  sm_limits sm = read_limits();

  /* Check 1: the table. */
  int table_wrong = check_table(&args, &sm);
  /* Check 2: saxpy's results and launch. */
  launch_shape shape;
  long long wrong = check_saxpy(&args, n, &shape);
  char reason[REASON_SIZE] = "";
  int launch_ok = check_launch(&args, &sm, n, shape, reason);

  /* Figures, for a right answer; then check 3 on the simulator (the profiler stays on once
   * started, and would slow the timed runs). */
  int profile_ok = 1;
  if (!wrong && launch_ok) {
    size_t bytes = (size_t)n * sizeof(float);
    float *d_x, *d_y;
    CUDA_CHECK(cudaMalloc((void **)&d_x, bytes));
    CUDA_CHECK(cudaMalloc((void **)&d_y, bytes));
    CUDA_CHECK(cudaMemset(d_x, 0, bytes));
    CUDA_CHECK(cudaMemset(d_y, 0, bytes));
    void *run_args[3] = {d_x, d_y, &n};
    double ms = wb_time_cuda_ms(run_saxpy, run_args, 1, args.repeat);
    wb_info(&args, "figures (%d floats; GB/s of 12 bytes per float):\n", n);
    wb_print_figure(&args, "saxpy", ms, 12.0 * n, &device, 0);
    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_y));
    if (wb_profile_unavailable()[0] == 0)
      profile_ok = check_profile(&args, reason);
    else
      wb_info(&args, "check 3: %s; run ncu on a GPU (README)\n", wb_profile_unavailable());
  }

  if (table_wrong) {
    snprintf(reason, sizeof reason, "task 1: %d of %d rows of the table wrong", table_wrong,
             (int)ROWS);
    return wb_finish(0, reason);
  }
  if (!launch_ok) return wb_finish(0, reason);
  if (wrong) return wb_finish(0, "saxpy's results are wrong (task 3: the grid-stride loop)");
  if (!profile_ok) return wb_finish(0, reason);
  return wb_finish(1, NULL);
}
