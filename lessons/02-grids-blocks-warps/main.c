/* Lesson 02 driver: runs your who_am_i_on_device() for several data shapes and block shapes (1D,
 * 2D and 3D, most of them not dividing evenly, one exactly), checks every cell against the CPU
 * reference, draws the map of a small 2D case, and times the 1D map for a range of block sizes. You
 * do not need to edit this file. */
#include "lesson.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Under AddressSanitizer (the sim-asan preset) the map is allocated at its exact size, so a write
 * outside the data is reported by the sanitizer with file and line. Otherwise it gets a fenced-off
 * tail that a thread without a bounds check would write into, and this driver reports that. */
#define WITH_FENCE (!WB_ASAN) /* under AddressSanitizer the sanitizer is the fence */

static const wb_program program = {
    .program = "02-grids-blocks-warps",
    .summary = "map block, thread, warp and lane of each cell, 1D to 3D",
    .default_n = 1 << 23,
    .min_n = 1,
    .max_n = 1 << 26,
    .n_meaning = "about that many cells in each shape",
    .default_repeat = 5,
};

enum { CONFIGURATIONS = 8, SWEEP_SIZES = 6, MAX_REPORTED = 5 };

typedef struct {
  const char *name;
  shape3 data;
  shape3 block;
} configuration;

static long long ceil_div(long long a, long long b) {
  return (a + b - 1) / b;
}
static int round_up(long long a, int b) {
  return (int)(ceil_div(a, b) * b);
}

/* Largest r >= 1 with r^power <= n (power 2 or 3), by bisection: no floating point needed. */
static long long integer_root(long long n, int power) {
  long long low = 1, high = power == 2 ? 1 << 16 : 1 << 11;
  while (low < high) {
    long long middle = (low + high + 1) / 2;
    long long value = power == 2 ? middle * middle : middle * middle * middle;
    if (value <= n)
      low = middle;
    else
      high = middle - 1;
  }
  return low;
}

/* The shapes checked for a given n: each holds about n cells; most do not divide evenly into
 * blocks, in x, in y or in z, so the bounds check matters in every dimension. */
static void make_configurations(long long n, configuration *c) {
  int width = (int)integer_root(n, 2), height = (int)ceil_div(n, width);
  int side = (int)integer_root(n, 3), depth = (int)ceil_div(n, (long long)side * (side + 1));
  c[0] = (configuration){"2D picture", {12, 8, 1}, {8, 8, 1}};
  c[1] = (configuration){"1D", {(int)n, 1, 1}, {256, 1, 1}};
  c[2] = (configuration){"1D, not a multiple of 32", {(int)n, 1, 1}, {100, 1, 1}};
  c[3] = (configuration){"2D", {width, height, 1}, {16, 16, 1}};
  c[4] = (configuration){"2D, wide blocks", {height, width, 1}, {32, 4, 1}};
  c[5] = (configuration){"3D", {side, side + 1, depth}, {8, 8, 4}};
  c[6] = (configuration){"3D, 1.5 warps per block", {depth, side, side + 1}, {4, 4, 3}};
  /* And one where the blocks fit exactly: no thread is idle, and a grid one block too big shows. */
  c[7] = (configuration){
      "3D, exact fit", {round_up(side, 8), round_up(side + 1, 8), round_up(depth, 4)}, {8, 8, 4}};
}

static shape3 grid_of(configuration c) {
  return (shape3){(int)ceil_div(c.data.x, c.block.x), (int)ceil_div(c.data.y, c.block.y),
                  (int)ceil_div(c.data.z, c.block.z)};
}

/* How many cells the map is given: the data, plus (with the fence) every index a thread of the
 * grid could reach if it skipped the bounds check. */
static long long allocated_cells(configuration c) {
  if (!WITH_FENCE) return cell_count(c.data);
  shape3 grid = grid_of(c);
  long long last_x = (long long)grid.x * c.block.x - 1, last_y = (long long)grid.y * c.block.y - 1,
            last_z = (long long)grid.z * c.block.z - 1;
  return (last_z * c.data.y + last_y) * c.data.x + last_x + 1;
}

static int written(const who_am_i *cell) {
  who_am_i untouched; /* the driver fills the map with 0xFF bytes before each launch */
  memset(&untouched, 0xFF, sizeof untouched);
  return memcmp(cell, &untouched, sizeof untouched) != 0;
}

static int same(const who_am_i *a, const who_am_i *b) {
  return a->block == b->block && a->thread == b->thread && a->rank == b->rank &&
         a->warp == b->warp && a->lane == b->lane;
}

static void describe(const who_am_i *cell) {
  if (!written(cell))
    printf("nothing (no thread wrote this cell)");
  else
    printf("block %d thread %d rank %d warp %d lane %d", cell->block, cell->thread, cell->rank,
           cell->warp, cell->lane);
}

/* Compare one map with the reference. Returns the number of wrong cells plus the number of writes
 * outside the data; with `report`, also prints the first mismatches with their (x, y, z). */
static long long check_map(configuration c, const who_am_i *got, const who_am_i *want,
                           long long allocated, int report) {
  long long cells = cell_count(c.data), wrong = 0, outside = 0, first_outside = -1;
  for (long long i = 0; i < cells; ++i) {
    if (same(&got[i], &want[i])) continue;
    if (wrong++ < MAX_REPORTED && report) {
      long long x = i % c.data.x, y = i / c.data.x % c.data.y, z = i / c.data.x / c.data.y;
      printf("  cell (x=%lld, y=%lld, z=%lld): got ", x, y, z);
      describe(&got[i]);
      printf(",\n      want ");
      describe(&want[i]);
      printf("\n");
    }
  }
  if (wrong > MAX_REPORTED && report)
    printf("  ... and %lld more wrong cells\n", wrong - MAX_REPORTED);
  for (long long i = cells; i < allocated; ++i)
    if (written(&got[i]) && outside++ == 0) first_outside = i;
  if (outside && report) {
    printf("  %lld write(s) landed past the end of the data, the first at index %lld\n  (from ",
           outside, first_outside);
    describe(&got[first_outside]);
    printf(").\n  A thread outside the data wrote anyway: does task 2 check x, y AND z?\n");
  }
  return wrong + outside;
}

/* Which task the first wrong cell of a map points at, for the FAIL line (hint 5, worked out). */
static const char *diagnose(configuration c, const who_am_i *got, const who_am_i *want,
                            long long allocated) {
  long long cells = cell_count(c.data);
  for (long long i = cells; i < allocated; ++i)
    if (written(&got[i])) return "a thread outside the data wrote (task 2: check x, y AND z)";
  /* Cells nobody wrote come first: a thread that writes a cell not its own (task 1) leaves its
   * record in the wrong place, which looks like a wrong number (task 3) where it landed. */
  for (long long i = 0; i < cells; ++i)
    if (!written(&got[i]))
      return "no thread wrote some cells (tasks 1 and 5: is every cell covered?)";
  for (long long i = 0; i < cells; ++i) {
    const who_am_i *g = &got[i], *w = &want[i];
    if (same(g, w)) continue;
    if (g->thread != w->thread) return "a wrong thread number (task 3: x, then y, then z)";
    if (g->block != w->block) {
      /* The block number a grid of data / block + 1 blocks would give: a block too many. */
      long long x = i % c.data.x, y = i / c.data.x % c.data.y, z = i / c.data.x / c.data.y;
      long long gx = c.data.x / c.block.x + 1, gy = c.data.y / c.block.y + 1;
      long long too_many = (z / c.block.z * gy + y / c.block.y) * gx + x / c.block.x;
      if (g->block == too_many)
        return "a grid with a block too many (task 5: (n + b - 1) / b, not n / b + 1)";
      return "a wrong block number (task 3: gridDim, not blockDim)";
    }
    if (g->rank != w->rank) return "a wrong rank (task 3: block * threads a block + thread)";
    return "a wrong warp or lane (task 4: from task 3's thread, not threadIdx.x)";
  }
  return "some cells of the map are wrong (see the mismatches above)";
}

/* A cell of the picture: '.' where nothing was written, digits, then letters. */
static char picture_char(const who_am_i *cell, int value) {
  static const char symbols[] = "0123456789abcdefghijklmnopqrstuvwxyz";
  if (!written(cell)) return '.';
  if (value < 0 || value >= (int)sizeof symbols - 1) return '#';
  return symbols[value];
}

static void draw_picture(configuration c, const who_am_i *map) {
  shape3 grid = grid_of(c);
  /* Blocks and warps one character per cell, lanes three: 12 cells wide fit 80 columns. */
  int narrow = c.data.x < 5 ? 5 : c.data.x;
  printf("\nThe %d x %d case as your kernel wrote it (blocks of %d x %d threads,\n"
         "a grid of %d x %d blocks; row y = 0 at the top, '.' = no thread wrote the cell):\n\n",
         c.data.x, c.data.y, c.block.x, c.block.y, grid.x, grid.y);
  printf("  %-*s   %-*s   %s\n", narrow, "block", narrow, "warp", "lane of each cell");
  for (int y = 0; y < c.data.y; ++y) {
    const who_am_i *row = &map[(long long)y * c.data.x];
    printf("  ");
    for (int x = 0; x < c.data.x; ++x) printf("%c", picture_char(&row[x], row[x].block));
    printf("%*s   ", narrow - c.data.x, "");
    for (int x = 0; x < c.data.x; ++x) printf("%c", picture_char(&row[x], row[x].warp));
    printf("%*s  ", narrow - c.data.x, "");
    for (int x = 0; x < c.data.x; ++x) {
      if (!written(&row[x]))
        printf("  .");
      else if (row[x].lane < 0 || row[x].lane > 99)
        printf(" ##");
      else
        printf(" %2d", row[x].lane);
    }
    printf("\n");
  }
  printf("\n");
}

typedef struct {
  who_am_i *d_map;
  shape3 data, block;
  who_am_i *host_map;
} timing_context;

static void run_on_device(void *context) {
  timing_context *t = context;
  CUDA_CHECK(who_am_i_on_device(t->d_map, t->data, t->block));
}

static void run_reference(void *context) {
  timing_context *t = context;
  who_am_i_reference(t->host_map, t->data, t->block);
}

int main(int argc, char **argv) {
  wb_args args;
  wb_parse_args(argc, argv, &program, &args);
  args.n = wb_seeded_n(&program, &args); /* --seed S: shapes of its own (a grade uses one) */
  configuration configurations[CONFIGURATIONS];
  make_configurations(args.n, configurations);
  static const int sweep[SWEEP_SIZES] = {32, 64, 128, 256, 512, 1024};

  /* Host maps big enough for every case (the device map is allocated case by case). */
  long long most_allocated = args.n, most_cells = 0;
  for (int i = 0; i < CONFIGURATIONS; ++i) {
    long long allocated = allocated_cells(configurations[i]),
              cells = cell_count(configurations[i].data);
    if (allocated > most_allocated) most_allocated = allocated;
    if (cells > most_cells) most_cells = cells;
  }
  size_t map_bytes = (size_t)most_allocated * sizeof(who_am_i);
  wb_require_host_memory(&program, (double)map_bytes + (double)most_cells * sizeof(who_am_i));

  wb_device device;
  wb_device_open(&device);
  wb_require_device_memory(&program, &device, (double)map_bytes);
  wb_print_header(&program, &device, &args);

  who_am_i *got = malloc(map_bytes), *want = malloc((size_t)most_cells * sizeof(who_am_i));
  if (!got || !want)
    wb_usage_error(&program, "cannot allocate %zu bytes of host memory", map_bytes);

  int failed = 0;
  const char *reason = NULL; /* the task the first wrong case points at */
  int table_started = 0;     /* the heading of the table of cases is printed */
  for (int i = 0; i < CONFIGURATIONS; ++i) {
    configuration c = configurations[i];
    shape3 grid = grid_of(c);
    long long allocated = allocated_cells(c);
    /* Each case gets its own allocation of exactly this size, so that under AddressSanitizer any
     * write outside it is caught. */
    who_am_i *d_map = NULL;
    CUDA_CHECK(cudaMalloc((void **)&d_map, (size_t)allocated * sizeof(who_am_i)));
    /* 0xFF bytes everywhere (-1 in every field): cells nobody writes stay recognizable. */
    CUDA_CHECK(cudaMemset(d_map, 0xFF, (size_t)allocated * sizeof(who_am_i)));
    cudaError_t status = who_am_i_on_device(d_map, c.data, c.block);
    if (status != cudaSuccess) {
      wb_print_wrapped(
          stdout, "  ",
          "check %s: who_am_i_on_device returned %s (%s) for data %d x %d x %d in blocks of "
          "%d x %d x %d\n",
          c.name, cudaGetErrorName(status), cudaGetErrorString(status), c.data.x, c.data.y,
          c.data.z, c.block.x, c.block.y, c.block.z);
      (void)cudaFree(d_map);
      return wb_finish(0,
                       "an error for a valid launch (task 5: is every grid dimension at least 1?)");
    }
    CUDA_CHECK(
        cudaMemcpy(got, d_map, (size_t)allocated * sizeof(who_am_i), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_map));
    who_am_i_reference(want, c.data, c.block);
    if (i == 0 && !args.quiet) draw_picture(c, got);
    long long wrong = check_map(c, got, want, allocated, 0);
    if (wrong || !args.quiet) {
      char data_text[48], block_text[48], grid_text[48];
      snprintf(data_text, sizeof data_text, "%dx%dx%d", c.data.x, c.data.y, c.data.z);
      snprintf(block_text, sizeof block_text, "%dx%dx%d", c.block.x, c.block.y, c.block.z);
      snprintf(grid_text, sizeof grid_text, "%dx%dx%d", grid.x, grid.y, grid.z);
      if (!table_started++) printf("%-30s %-12s %-7s grid\n", "", "data", "block");
      printf("check %-24s %-12s %-7s %-10s %s\n", c.name, data_text, block_text, grid_text,
             wrong ? "WRONG" : "right");
    }
    /* The details of the first wrong case only: one case at a time is easier to read. */
    if (wrong && !failed++) {
      check_map(c, got, want, allocated, 1);
      reason = diagnose(c, got, want, allocated);
    }
  }

  /* Figures: the 1D map with blocks of 32 to 1024 threads. On a GPU, blocks that are too small
   * leave the multiprocessors half empty (each holds only so many blocks at once); 128-512 is
   * usually near the best, which is why it is the place to start. */
  if (!failed && !args.quiet) {
    shape3 data = {(int)args.n, 1, 1};
    who_am_i *d_map = NULL;
    CUDA_CHECK(cudaMalloc((void **)&d_map, (size_t)args.n * sizeof(who_am_i)));
    timing_context host_context = {NULL, data, {256, 1, 1}, want};
    double cpu_ms = wb_time_host_ms(run_reference, &host_context, 1, args.repeat);
    printf("\nThe 1D map of %lld cell%s, by block size:\n", args.n, WB_PLURAL(args.n));
    wb_print_figure(&args, "CPU reference", cpu_ms, (double)args.n * sizeof(who_am_i), NULL, 0);
    for (int i = 0; i < SWEEP_SIZES; ++i) {
      timing_context device_context = {d_map, data, {sweep[i], 1, 1}, NULL};
      char label[64];
      snprintf(label, sizeof label, "blocks of %d threads", sweep[i]);
      double ms = wb_time_cuda_ms(run_on_device, &device_context, 1, args.repeat);
      wb_print_figure(&args, label, ms, (double)args.n * sizeof(who_am_i), &device, cpu_ms);
    }
    CUDA_CHECK(cudaFree(d_map));
  }

  free(got);
  free(want);
  if (failed) return wb_finish(0, reason);
  return wb_finish(1, NULL);
}
