/* Lesson 04 driver: checks your two kernels against the CPU reference (the grid-stride one with
 * several grid sizes), then times, side by side, the CPU loop, the kernel alone, and the whole
 * trip with both copies. You do not need to edit this file. */
#include "lesson.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Under AddressSanitizer (the sim-asan preset) the arrays are allocated at their exact size, so
 * the first access past the end is reported by the sanitizer with file and line. Otherwise both
 * arrays get a fenced-off tail of one block, where a thread without a bounds check would land,
 * and this driver reports any write into it. */
#define WITH_FENCE (!WB_ASAN) /* under AddressSanitizer the sanitizer is the fence */

static const wb_program program = {
    .program = "04-doubling-large-arrays",
    .summary = "double a large array: kernel time vs the whole trip",
    .default_n = 30000000, /* the Python original's 30 million random numbers */
    .sim_default_n = 4000000,
    .min_n = 1,
    .max_n = 1 << 30,
    .n_meaning = "number of doubles",
    .default_repeat = 5,
};

enum {
  THREADS_PER_BLOCK = 128
}; /* the Python original's choice: a multiple of the warp size (32) */

typedef struct {
  const double *in;     /* host input (for the CPU loop and the copies) */
  double *out;          /* host output */
  double *d_in, *d_out; /* n elements each, then `fence` more */
  int n, blocks, fence;
} context;

static void run_cpu_loop(void *c_) {
  context *c = c_;
  double_reference(c->in, c->out, c->n);
}

static cudaError_t launch_kernel(context *c) {
  return double_elements(c->d_in, c->d_out, c->n, THREADS_PER_BLOCK);
}

static cudaError_t launch_grid_stride(context *c) {
  return double_elements_grid_stride(c->d_in, c->d_out, c->n, c->blocks, THREADS_PER_BLOCK);
}

static void run_kernel(void *c) {
  CUDA_CHECK(launch_kernel(c));
}

static void run_grid_stride(void *c) {
  CUDA_CHECK(launch_grid_stride(c));
}

static void run_copy_in(void *c_) {
  context *c = c_;
  CUDA_CHECK(cudaMemcpy(c->d_in, c->in, (size_t)c->n * sizeof(double), cudaMemcpyHostToDevice));
}

static void run_copy_out(void *c_) {
  context *c = c_;
  CUDA_CHECK(cudaMemcpy(c->out, c->d_out, (size_t)c->n * sizeof(double), cudaMemcpyDeviceToHost));
}

/* What the Python original's first GPU version really timed: Numba copied the array in, ran the
 * kernel and copied the result out on every call. */
static void run_whole_trip(void *c_) {
  run_copy_in(c_);
  run_kernel(c_);
  run_copy_out(c_);
}

/* Fill d_out, and its fence, with 0xFF bytes (NaN as doubles) so that elements nobody wrote show
 * up, launch, wait, copy back, compare. Returns the number of wrong elements plus the writes that
 * landed in the fence, which it also counts in *past_end (all n when the launch was refused: that
 * is a wrong answer too, not a crash). */
static long long check_launch(const char *what, context *c, cudaError_t (*launch)(context *),
                              const double *want, long long *past_end) {
  size_t bytes = (size_t)c->n * sizeof(double);
  CUDA_CHECK(cudaMemset(c->d_out, 0xFF, bytes + (size_t)c->fence * sizeof(double)));
  cudaError_t status = launch(c);
  if (status != cudaSuccess) {
    wb_print_wrapped(stdout, NULL, "%s: the launch was refused: %s: %s\n", what,
                     cudaGetErrorName(status), cudaGetErrorString(status));
    if (wb_launch_refused(status) && c->n < THREADS_PER_BLOCK)
      printf("  (n = %d is less than one block: does the block count round up?)\n", c->n);
    else if (wb_launch_refused(status))
      printf("  (every grid and block dimension must be at least 1, and a block may have at most\n"
             "  1024 threads)\n");
    return c->n;
  }
  CUDA_CHECK(cudaDeviceSynchronize()); /* the kernel runs; errors while it runs show up here */
  CUDA_CHECK(cudaMemcpy(c->out, c->d_out, bytes, cudaMemcpyDeviceToHost));
  long long wrong = (long long)wb_compare_f64(what, c->out, want, (size_t)c->n, 0.0, 0.0);
  if (c->fence) {
    int written = (int)wb_fence_written(c->d_out + c->n, (size_t)c->fence, sizeof(double));
    if (written) {
      wb_print_wrapped(stdout, "  ",
                       "%s: %d element(s) past the end were written (out[%d] onward): threads "
                       "with i >= n must do nothing. Here they landed in a fence this driver put "
                       "after the array; in your own programs that memory belongs to something "
                       "else.\n",
                       what, written, c->n);
      *past_end += written;
      wrong += written;
    }
  }
  return wrong;
}

/* After a wrong check 1: were the only wrong elements a tail of untouched ones (NaN bytes), from
 * a block's start to the end, shorter than a block? Then the grid was rounded instead of rounded
 * up (task 2), and task 1 is right. (A longer tail can also be task 1: when every block works on
 * the first block's elements, everything after them stays untouched.) Returns the first element
 * of that tail, or -1. */
static int unwritten_tail(const double *got, const double *want, int n) {
  int first = 0;
  while (first < n && got[first] == want[first]) ++first;
  if (first == n || first % THREADS_PER_BLOCK != 0 || n - first >= THREADS_PER_BLOCK) return -1;
  double untouched;
  memset(&untouched, 0xFF, sizeof untouched);
  for (int i = first; i < n; ++i)
    if (memcmp(&got[i], &untouched, sizeof untouched) != 0) return -1;
  return first;
}

/* Enough blocks of THREADS_PER_BLOCK to fill every multiprocessor: as many threads as one keeps
 * resident (2048 on an H100, so 16 blocks of 128 each). Four blocks per multiprocessor would
 * leave three quarters of the thread slots empty (25% occupancy) and the memory system idle. */
static int full_load_blocks(const wb_device *device) {
  int threads_per_multiprocessor = 0;
  if (cudaDeviceGetAttribute(&threads_per_multiprocessor, cudaDevAttrMaxThreadsPerMultiProcessor,
                             0) != cudaSuccess ||
      threads_per_multiprocessor < THREADS_PER_BLOCK)
    threads_per_multiprocessor = 2048;
  int multiprocessors = device->multiprocessors > 0 ? device->multiprocessors : 1;
  return multiprocessors * (threads_per_multiprocessor / THREADS_PER_BLOCK);
}

int main(int argc, char **argv) {
  wb_args args;
  wb_parse_args(argc, argv, &program, &args);
  args.n = wb_seeded_n(&program, &args); /* --seed S: a size of its own (a grade uses one) */
  int n = (int)args.n;
  size_t bytes = (size_t)n * sizeof(double);
  wb_require_host_memory(&program, 3.0 * (double)bytes);

  wb_device device;
  wb_device_open(&device);
  wb_require_device_memory(&program, &device,
                           2.0 * (double)(bytes + THREADS_PER_BLOCK * sizeof(double)));
  wb_print_header(&program, &device, &args);

  double *in = malloc(bytes), *out = malloc(bytes), *want = malloc(bytes);
  if (!in || !out || !want)
    wb_usage_error(&program, "cannot allocate %zu bytes of host memory", 3 * bytes);
  wb_fill_f64(in, (size_t)n, args.seed, 0.0, 1.0); /* like numpy.random.random */
  double_reference(in, want, n);

  context c = {in, out, NULL, NULL, n, 0, WITH_FENCE ? THREADS_PER_BLOCK : 0};
  size_t fenced = bytes + (size_t)c.fence * sizeof(double);
  CUDA_CHECK(cudaMalloc((void **)&c.d_in, fenced));
  CUDA_CHECK(cudaMalloc((void **)&c.d_out, fenced));
  CUDA_CHECK(cudaMemcpy(c.d_in, in, bytes, cudaMemcpyHostToDevice));
  if (c.fence) CUDA_CHECK(cudaMemset(c.d_in + n, 0, fenced - bytes)); /* harmless to read */

  /* Check 1: one thread per element, ceil(n / 128) blocks. */
  int blocks_needed = (n + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK;
  long long past_end = 0; /* writes past the end of the array in check 1 */
  long long wrong = check_launch("out", &c, launch_kernel, want, &past_end);
  int tail = wrong && !past_end ? unwritten_tail(c.out, want, n) : -1;
  wb_info(&args,
          "check 1: %d block%s of %d threads, out[i] == 2 * in[i] for all %d element%s: %s\n",
          blocks_needed, WB_PLURAL(blocks_needed), THREADS_PER_BLOCK, n, WB_PLURAL(n),
          wrong ? "no" : "yes");

  /* Check 2: the grid-stride loop must not care how many blocks it gets: one block (each
   * thread loops many times), a few, a full load for every multiprocessor (the usual choice),
   * and one thread per element (each thread loops at most once). */
  int grids[4] = {1, 3, full_load_blocks(&device), blocks_needed};
  long long stride_wrong = 0, stride_past_end = 0;
  for (int g = 0; g < 4 && !stride_wrong; ++g) {
    int seen = 0; /* small n: the last grid may equal an earlier one */
    for (int h = 0; h < g; ++h) seen |= grids[h] == grids[g];
    if (seen) continue;
    c.blocks = grids[g];
    stride_wrong = check_launch("out", &c, launch_grid_stride, want, &stride_past_end);
    wb_info(&args, "check 2: grid-stride loop on %d block%s of %d threads: %s\n", grids[g],
            grids[g] == 1 ? "" : "s", THREADS_PER_BLOCK, stride_wrong ? "no" : "yes");
    if (stride_wrong && args.quiet)
      printf("the grid-stride kernel is wrong with %d blocks\n", grids[g]);
  }

  /* Figures: only for right answers (a wrong kernel's speed means nothing). */
  if (!wrong && !stride_wrong) {
    double moved = 2.0 * (double)bytes; /* each element read once and written once */
    c.blocks = grids[2];
    double cpu_ms = wb_time_host_ms(run_cpu_loop, &c, 1, args.repeat);
    double kernel_ms = wb_time_cuda_ms(run_kernel, &c, 1, args.repeat);
    double stride_ms = wb_time_cuda_ms(run_grid_stride, &c, 1, args.repeat);
    double in_ms = wb_time_cuda_ms(run_copy_in, &c, 1, args.repeat);
    double out_ms = wb_time_cuda_ms(run_copy_out, &c, 1, args.repeat);
    double trip_ms = wb_time_cuda_ms(run_whole_trip, &c, 1, args.repeat);
    char stride_label[64];
    snprintf(stride_label, sizeof stride_label, "grid-stride, %d blocks", grids[2]);
    wb_info(&args, "figures (GB/s counts %d x 8 bytes read and %d x 8 written):\n", n, n);
    wb_print_figure(&args, "CPU loop", cpu_ms, moved, NULL, 0);
    wb_print_figure(&args, "kernel alone", kernel_ms, moved, &device, cpu_ms);
    wb_print_figure(&args, stride_label, stride_ms, moved, &device, cpu_ms);
    wb_print_figure(&args, "copy in (host to device)", in_ms, (double)bytes, NULL, 0);
    wb_print_figure(&args, "copy out (device to host)", out_ms, (double)bytes, NULL, 0);
    wb_print_figure(&args, "copy in + kernel + copy out", trip_ms, moved, NULL, cpu_ms);
    if (trip_ms > 0)
      wb_info(&args, "the kernel is %.1f%% of the whole trip; the copies are the rest\n",
              100.0 * kernel_ms / trip_ms);
  }

  CUDA_CHECK(cudaFree(c.d_in));
  CUDA_CHECK(cudaFree(c.d_out));
  free(in);
  free(out);
  free(want);
  if (wrong && past_end)
    return wb_finish(0, "threads past the end wrote to memory (task 1: the bounds check)");
  if (tail > 0) {
    static char reason[128];
    snprintf(reason, sizeof reason,
             "the last %d elements were not written (task 2: round the block count up)", n - tail);
    return wb_finish(0, reason);
  }
  if (wrong)
    return wb_finish(0, "out[i] is not 2 * in[i] with one thread per element (tasks 1 and 2)");
  if (stride_wrong) return wb_finish(0, "the grid-stride kernel missed elements (task 3)");
  return wb_finish(1, NULL);
}
