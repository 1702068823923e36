/* Lesson 13 driver: checks your two transposes against the CPU on an n x n square and a
 * non-square matrix, and your structure-of-arrays kernel on n * n records; then asks the
 * simulator's profiler whether your kernels are coalesced and free of bank conflicts (on a GPU,
 * where the profiler is not available, it times them instead), and times everything. You do not
 * need to edit this file. */
#include "lesson.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const wb_program program = {
    .program = "13-coalescing",
    .summary = "a matrix transpose three ways, structures against arrays, strides",
    .default_n = 8192,    /* 8192 x 8192 floats, 256 MiB: long enough to time on a GPU */
    .sim_default_n = 256, /* a few seconds on the simulator */
    .min_n = 1,
    .max_n = 16384,
    .n_meaning = "matrix side; n * n records",
    .default_repeat = 5,
};

enum {
  PROFILE_ROWS = 64, /* the profiler's matrix: whole tiles, rows that start on a sector */
  PROFILE_COLS = 96,
  PROFILE_RECORDS = PROFILE_ROWS * PROFILE_COLS,
  SWEEP_READS = 4096,       /* floats read per stride in the profiler's sweep */
  MAX_STRIDE = 32,          /* the sweep goes 1, 2, 4, ... 32 */
  TIMING_MIN = 1024 * 1024, /* the GPU's timing check needs at least this many floats */
  REASON_SIZE = 256
};

typedef cudaError_t (*transpose_fn)(const float *, float *, int, int);

/* What a timed or profiled call runs: one of the matrix kernels, a records kernel, or the
 * sweep. */
typedef struct {
  const float *d_in;
  float *d_out;
  int rows, cols;
  transpose_fn transpose;
  const who_am_i *d_records;
  who_am_i_columns d_columns;
  int *d_ints;
  int records, from_columns, count, stride;
} job;

static void run_matrix(void *j_) {
  job *j = j_;
  CUDA_CHECK(j->transpose(j->d_in, j->d_out, j->rows, j->cols));
}
static void run_records(void *j_) {
  job *j = j_;
  if (j->from_columns)
    CUDA_CHECK(thread_from_columns(j->d_columns, j->d_ints, j->records));
  else
    CUDA_CHECK(thread_from_structures(j->d_records, j->d_ints, j->records));
}
static void run_sweep(void *j_) {
  job *j = j_;
  CUDA_CHECK(read_strided(j->d_in, j->d_out, j->count, j->stride));
}

static const struct {
  const char *name, *kernel;
  transpose_fn fn;
} transposes[3] = {
    {"naive", "transpose_naive_kernel", transpose_naive},
    {"tiled", "transpose_tiled_kernel", transpose_tiled},
    {"padded", "transpose_padded_kernel", transpose_padded},
};

/* Check 1 for one shape: each transpose of a rows x cols matrix, into an output full of NaN, in
 * buffers of exactly that size (the memory checker catches a thread that reads or writes past
 * them). Adds the wrong elements of each transpose to wrong[]. */
static void check_transposes(const wb_args *args, int rows, int cols, long long wrong[3]) {
  size_t count = (size_t)rows * cols, bytes = count * sizeof(float);
  float *in = malloc(bytes), *got = malloc(bytes), *want = malloc(bytes);
  if (!in || !got || !want) wb_usage_error(&program, "cannot allocate %zu bytes", 3 * bytes);
  wb_fill_f32(in, count, args->seed + (uint64_t)rows, -1.0f, 1.0f);
  transpose_reference(in, want, rows, cols);
  job j = {.rows = rows, .cols = cols};
  CUDA_CHECK(cudaMalloc((void **)&j.d_in, bytes));
  CUDA_CHECK(cudaMalloc((void **)&j.d_out, bytes));
  CUDA_CHECK(cudaMemcpy((void *)j.d_in, in, bytes, cudaMemcpyHostToDevice));
  char verdicts[3][8];
  for (int t = 0; t < 3; ++t) {
    char what[32];
    snprintf(what, sizeof what, "out (%s)", transposes[t].name);
    CUDA_CHECK(cudaMemset(j.d_out, 0xFF, bytes));
    j.transpose = transposes[t].fn;
    run_matrix(&j);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(got, j.d_out, bytes, cudaMemcpyDeviceToHost));
    long long w = (long long)wb_compare_f32(what, got, want, count, 0.0, 0.0);
    wrong[t] += w;
    snprintf(verdicts[t], sizeof verdicts[t], "%s", w ? "no" : "yes");
  }
  wb_info(args, "check 1: transpose %d x %d, naive: %s, tiled: %s, padded: %s\n", rows, cols,
          verdicts[0], verdicts[1], verdicts[2]);
  CUDA_CHECK(cudaFree((void *)j.d_in));
  CUDA_CHECK(cudaFree(j.d_out));
  free(in);
  free(got);
  free(want);
}

/* Lesson 02's map of a one-dimensional launch in blocks of THREADS: record i is thread
 * first + i's (first is 0 but in a run with a seed of its own, a grade's: then an answer that
 * makes the output from i alone, not from the records, fails). */
static void fill_records(who_am_i *records, int n, int first) {
  for (int i = 0; i < n; ++i) {
    int rank = first + i, thread = rank % THREADS;
    records[i] = (who_am_i){.block = rank / THREADS,
                            .thread = thread,
                            .rank = rank,
                            .warp = thread / 32,
                            .lane = thread % 32};
  }
}

/* The records on the device, both ways: d_records as an array of structures, d_columns as five
 * arrays. */
static void upload_records(job *j, const who_am_i *records, int n) {
  size_t bytes = (size_t)n * sizeof(int);
  int *column = malloc(bytes);
  if (!column) wb_usage_error(&program, "cannot allocate %zu bytes", bytes);
  CUDA_CHECK(cudaMalloc((void **)&j->d_records, (size_t)n * sizeof(who_am_i)));
  CUDA_CHECK(cudaMemcpy((void *)j->d_records, records, (size_t)n * sizeof(who_am_i),
                        cudaMemcpyHostToDevice));
  int **fields[5] = {&j->d_columns.block, &j->d_columns.thread, &j->d_columns.rank,
                     &j->d_columns.warp, &j->d_columns.lane};
  for (int f = 0; f < 5; ++f) {
    for (int i = 0; i < n; ++i) {
      const int values[5] = {records[i].block, records[i].thread, records[i].rank, records[i].warp,
                             records[i].lane};
      column[i] = values[f];
    }
    CUDA_CHECK(cudaMalloc((void **)fields[f], bytes));
    CUDA_CHECK(cudaMemcpy(*fields[f], column, bytes, cudaMemcpyHostToDevice));
  }
  CUDA_CHECK(cudaMalloc((void **)&j->d_ints, bytes));
  j->records = n;
  free(column);
}

static void free_records(job *j) {
  CUDA_CHECK(cudaFree((void *)j->d_records));
  int *fields[5] = {j->d_columns.block, j->d_columns.thread, j->d_columns.rank, j->d_columns.warp,
                    j->d_columns.lane};
  for (int f = 0; f < 5; ++f) CUDA_CHECK(cudaFree(fields[f]));
  CUDA_CHECK(cudaFree(j->d_ints));
}

/* Check 2: both records kernels on n records, into an output full of -1. */
static long long check_records(const wb_args *args, job *j, const who_am_i *records, int n) {
  size_t bytes = (size_t)n * sizeof(int);
  int *got = malloc(bytes), *want = malloc(bytes);
  if (!got || !want) wb_usage_error(&program, "cannot allocate %zu bytes", 2 * bytes);
  thread_reference(records, want, n);
  long long wrong[2];
  for (int c = 0; c < 2; ++c) {
    CUDA_CHECK(cudaMemset(j->d_ints, 0xFF, bytes));
    j->from_columns = c;
    run_records(j);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(got, j->d_ints, bytes, cudaMemcpyDeviceToHost));
    wrong[c] =
        (long long)wb_compare_i32(c ? "out (arrays)" : "out (structures)", got, want, (size_t)n);
  }
  wb_info(args, "check 2: %d record%s, structures: %s, arrays: %s\n", n, WB_PLURAL(n),
          wrong[0] ? "no" : "yes", wrong[1] ? "no" : "yes");
  free(got);
  free(want);
  return wrong[0] + wrong[1];
}

static double per_request(unsigned long long sectors, unsigned long long requests) {
  return requests ? (double)sectors / (double)requests : 0.0;
}

/* Profile one call of `run` and return the counts of `kernel`. */
static wb_profile profile_one(void (*run)(void *), job *j, const char *kernel) {
  wb_profile p;
  wb_profile_start();
  run(j);
  wb_profile_stop(kernel, &p);
  return p;
}

static void print_profile_line(const wb_args *args, const char *label, const wb_profile *p) {
  wb_info(args, "  %-30s %7.1f %8.1f %16llu\n", label,
          per_request(p->global_load_sectors, p->global_load_requests),
          per_request(p->global_store_sectors, p->global_store_requests), p->bank_conflicts);
}

/* Loads and stores of `p` at the ideal; otherwise the reason, naming the task, in `reason`. */
static int coalesced(const wb_profile *p, const char *what, int task, char *reason) {
  const char *access = NULL;
  unsigned long long sectors = 0, ideal = 0, requests = 0;
  if (p->global_load_sectors > p->global_load_ideal_sectors)
    access = "loads", sectors = p->global_load_sectors, ideal = p->global_load_ideal_sectors,
    requests = p->global_load_requests;
  else if (p->global_store_sectors > p->global_store_ideal_sectors)
    access = "stores", sectors = p->global_store_sectors, ideal = p->global_store_ideal_sectors,
    requests = p->global_store_requests;
  if (!access) return 1;
  snprintf(reason, REASON_SIZE, "task %d: %s's %s: %.1f sectors/request, ideal %.1f", task, what,
           access, per_request(sectors, requests), per_request(ideal, requests));
  return 0;
}

/* Check 3 on the simulator: the profiler's counts for every kernel on a matrix of whole tiles
 * and PROFILE_RECORDS records, then the stride sweep. Returns 1 when your kernels are coalesced
 * and the padded one free of bank conflicts; otherwise fills `reason`. */
static int check_profile(const wb_args *args, char *reason) {
  size_t floats = (size_t)SWEEP_READS * MAX_STRIDE; /* the sweep's input, larger than the matrix */
  job j = {.rows = PROFILE_ROWS, .cols = PROFILE_COLS};
  float *zeros = calloc(floats, sizeof(float));
  who_am_i *records = malloc(PROFILE_RECORDS * sizeof(who_am_i));
  if (!zeros || !records) wb_usage_error(&program, "cannot allocate the profiler's data");
  CUDA_CHECK(cudaMalloc((void **)&j.d_in, floats * sizeof(float)));
  CUDA_CHECK(cudaMalloc((void **)&j.d_out, floats * sizeof(float)));
  CUDA_CHECK(cudaMemcpy((void *)j.d_in, zeros, floats * sizeof(float), cudaMemcpyHostToDevice));
  fill_records(records, PROFILE_RECORDS, 0);
  upload_records(&j, records, PROFILE_RECORDS);

  wb_profile p[3], aos, soa;
  for (int t = 0; t < 3; ++t) {
    j.transpose = transposes[t].fn;
    p[t] = profile_one(run_matrix, &j, transposes[t].kernel);
  }
  j.from_columns = 0;
  aos = profile_one(run_records, &j, "thread_from_structures_kernel");
  j.from_columns = 1;
  soa = profile_one(run_records, &j, "thread_from_columns_kernel");

  wb_info(args, "check 3: the profiler, on a %d x %d matrix and %d records\n", PROFILE_ROWS,
          PROFILE_COLS, PROFILE_RECORDS);
  wb_info(args, "  %-30s %7s %8s %16s\n", "sectors per request, ideal 4.0", "loads", "stores",
          "bank conflicts");
  const char *labels[3] = {"naive transpose", "tiled transpose (task 1)",
                           "padded transpose (task 2)"};
  for (int t = 0; t < 3; ++t) print_profile_line(args, labels[t], &p[t]);
  print_profile_line(args, "records as structures (AoS)", &aos);
  print_profile_line(args, "records as arrays (task 3)", &soa);

  /* The stride sweep: SWEEP_READS floats, `stride` floats apart. */
  wb_info(args, "stride sweep: the loads' sectors per request (ideal 4.0)\n");
  char line[128] = "";
  size_t used = 0;
  for (int stride = 1; stride <= MAX_STRIDE; stride *= 2) {
    j.count = SWEEP_READS, j.stride = stride;
    wb_profile s = profile_one(run_sweep, &j, "read_strided_kernel");
    used +=
        (size_t)snprintf(line + used, sizeof line - used, "%s  stride %2d: %4.1f", used ? " " : "",
                         stride, per_request(s.global_load_sectors, s.global_load_requests));
    if (stride == 4 || stride == MAX_STRIDE) {
      wb_info(args, "%s\n", line);
      used = 0, line[0] = 0;
    }
  }

  int ok = coalesced(&p[1], "the tiled transpose", 1, reason) &&
           coalesced(&p[2], "the padded transpose", 2, reason) &&
           coalesced(&soa, "the records kernel (arrays)", 3, reason);
  if (ok && p[2].bank_conflicts) {
    snprintf(reason, REASON_SIZE,
             "task 2: the padded transpose has %llu bank conflicts (pad the tile)",
             p[2].bank_conflicts);
    ok = 0;
  }
  free_records(&j);
  CUDA_CHECK(cudaFree((void *)j.d_in));
  CUDA_CHECK(cudaFree(j.d_out));
  free(zeros);
  free(records);
  return ok;
}

int main(int argc, char **argv) {
  wb_args args;
  wb_parse_args(argc, argv, &program, &args);
  args.n = wb_seeded_n(&program, &args); /* --seed S: a size of its own (a grade uses one) */
  int side = (int)args.n, n = side * side;
  /* The non-square matrix: (side/2 + 1) x (side + 5); for the usual sizes neither side is a
   * multiple of TILE. */
  int rows2 = side / 2 + 1, cols2 = side + 5;
  size_t matrix = (size_t)n * sizeof(float);
  size_t record_bytes = (size_t)n * (2 * sizeof(who_am_i) + 3 * sizeof(int));
  wb_require_host_memory(&program, 3.0 * (double)matrix + (double)record_bytes);

  wb_device device;
  wb_device_open(&device);
  wb_require_device_memory(&program, &device, 2.0 * (double)matrix + (double)record_bytes);
  wb_print_header(&program, &device, &args);

  /* Check 1: the three transposes, square then non-square. */
  long long wrong[3] = {0, 0, 0};
  check_transposes(&args, side, side, wrong);
  if (!wrong[1] && !wrong[2]) check_transposes(&args, rows2, cols2, wrong);

  /* Check 2: the records, both ways. */
  who_am_i *records = malloc((size_t)n * sizeof(who_am_i));
  if (!records) wb_usage_error(&program, "cannot allocate %zu bytes", n * sizeof(who_am_i));
  int first = 0; /* a grade's seed: records of a later part of the launch, never block-aligned */
  if (args.seed != 1) {
    uint64_t bits = wb_hash64(args.seed, 0x4EC0ULL);
    first = (int)(bits % 4) * THREADS + 1 + (int)((bits >> 8) % (THREADS - 1));
  }
  fill_records(records, n, first);
  wb_input_record(records, (size_t)n * sizeof(who_am_i));
  job j = {.rows = side, .cols = side};
  upload_records(&j, records, n);
  long long records_wrong = check_records(&args, &j, records, n);

  /* Check 3, for right answers only: coalescing and bank conflicts, from the simulator's
   * profiler; on a GPU, timing. */
  int right = !wrong[0] && !wrong[1] && !wrong[2] && !records_wrong;
  char reason[REASON_SIZE] = "";
  int profiled = wb_profile_unavailable()[0] == 0;
  int fast = 1;

  /* Figures, only for right answers (a wrong kernel's speed means nothing); on a GPU they are
   * check 3. */
  if (right) {
    CUDA_CHECK(cudaMalloc((void **)&j.d_in, matrix));
    CUDA_CHECK(cudaMalloc((void **)&j.d_out, matrix));
    CUDA_CHECK(cudaMemset((void *)j.d_in, 0, matrix));
    double ms[4], copy_ms;
    j.transpose = copy_matrix;
    copy_ms = wb_time_cuda_ms(run_matrix, &j, 1, args.repeat);
    for (int t = 0; t < 3; ++t) {
      j.transpose = transposes[t].fn;
      ms[t] = wb_time_cuda_ms(run_matrix, &j, 1, args.repeat);
    }
    j.from_columns = 0;
    double aos_ms = wb_time_cuda_ms(run_records, &j, 1, args.repeat);
    j.from_columns = 1;
    ms[3] = wb_time_cuda_ms(run_records, &j, 1, args.repeat);
    wb_info(&args, "figures (%d x %d floats, %d record%s; GB/s of the bytes used):\n", side, side,
            n, WB_PLURAL(n));
    wb_print_figure(&args, "copy", copy_ms, 2.0 * (double)matrix, &device, 0);
    const char *labels[3] = {"naive transpose", "tiled transpose", "padded transpose"};
    for (int t = 0; t < 3; ++t) wb_print_figure(&args, labels[t], ms[t], 2.0 * matrix, &device, 0);
    /* A record's bytes used: two ints read, one written. */
    wb_print_figure(&args, "records as structures", aos_ms, 12.0 * n, &device, 0);
    wb_print_figure(&args, "records as arrays", ms[3], 12.0 * n, &device, 0);
    if (ms[0] > 0 && ms[1] > 0 && ms[2] > 0)
      wb_info(&args, "of the copy's bandwidth: naive %.0f%%, tiled %.0f%%, padded %.0f%%\n%s",
              100.0 * copy_ms / ms[0], 100.0 * copy_ms / ms[1], 100.0 * copy_ms / ms[2],
              device.is_simulator ? "  (on the simulator these say nothing about a GPU)\n" : "");
    if (!profiled) { /* the sweep's bandwidth: each stride-th float of the matrix */
      wb_info(&args, "stride sweep: every stride-th float read (GB/s of those floats)\n");
      for (int stride = 1; stride <= MAX_STRIDE; stride *= 2) {
        char label[32];
        snprintf(label, sizeof label, "stride %d", stride);
        j.count = (n + stride - 1) / stride, j.stride = stride;
        double sweep_ms = wb_time_cuda_ms(run_sweep, &j, 1, args.repeat);
        wb_print_figure(&args, label, sweep_ms, 8.0 * j.count, &device, 0);
      }
    }
    if (!profiled && !device.is_simulator) {
      if (n < TIMING_MIN)
        wb_info(&args, "check 3: no profiler on a GPU, and n = %d is too small to time (%d+)\n",
                side, 1024);
      else {
        wb_info(&args,
                "check 3: no profiler on a GPU; tiled faster than naive: %s, "
                "padded: %s\n",
                ms[1] < ms[0] ? "yes" : "no", ms[2] < ms[0] ? "yes" : "no");
        for (int t = 2; t >= 1; --t)
          if (ms[t] >= ms[0]) {
            snprintf(reason, sizeof reason,
                     "task %d: the %s transpose is no faster than the naive one", t,
                     transposes[t].name);
            fast = 0;
          }
      }
    }
    CUDA_CHECK(cudaFree((void *)j.d_in));
    CUDA_CHECK(cudaFree(j.d_out));
  }

  /* On the simulator, after the figures: the profiler stays on once started, and would slow the
   * timed runs. */
  if (right && profiled)
    fast = check_profile(&args, reason);
  else if (right && device.is_simulator)
    wb_info(&args, "check 3: %s; coalescing is not checked\n", wb_profile_unavailable());

  free_records(&j);
  free(records);
  if (wrong[0]) return wb_finish(0, "the naive transpose is wrong (it is given: was it edited?)");
  if (wrong[1])
    return wb_finish(0, "the tiled transpose is wrong (task 1: the tile, __syncthreads, bounds)");
  if (wrong[2])
    return wb_finish(0, "the padded transpose is wrong (task 2: a tile of TILE x (TILE + 1))");
  if (records_wrong)
    return wb_finish(0, "the structure of arrays is wrong (task 3: warp * 32 + lane)");
  if (!fast) return wb_finish(0, reason);
  return wb_finish(1, NULL);
}
