/* Lesson 03 driver: checks your copy with one block (up to the limit), shows what your code
 * reports when one block would need more threads than a block can hold, checks the copy with many
 * blocks (including the elements past the end that no thread may touch), and times it. You do
 * not need to edit this file. */
#include "lesson.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Under AddressSanitizer (the sim-asan preset) the arrays are allocated at their exact size, so a
 * thread that writes past the end is reported by the sanitizer with file and line. Otherwise the
 * output gets a fenced-off tail where such a thread would land, and this driver reports that. */
#define WITH_FENCE (!WB_ASAN) /* under AddressSanitizer the sanitizer is the fence */

static const wb_program program = {
    .program = "03-hello-copy",
    .summary = "copy with one block, then with many blocks and a bounds check",
    .default_n = 1 << 24,
    .min_n = 1,
    .max_n = 1 << 30,
    .n_meaning = "number of floats",
    .default_repeat = 5,
};

typedef struct {
  float *in, *out; /* on the device, or (for the reference) on the host */
  int n;
} copy_buffers;

/* Device input and output of `count` elements, plus `fence` more: the input's fence holds zeros,
 * the output is all 0xFF bytes (NaN), so any element a thread writes shows. */
static copy_buffers device_buffers(const float *host_in, int count, int fence) {
  copy_buffers b = {NULL, NULL, count};
  size_t bytes = (size_t)count * sizeof(float), fenced = (size_t)(count + fence) * sizeof(float);
  CUDA_CHECK(cudaMalloc((void **)&b.in, fenced));
  CUDA_CHECK(cudaMalloc((void **)&b.out, fenced));
  CUDA_CHECK(cudaMemcpy(b.in, host_in, bytes, cudaMemcpyHostToDevice));
  if (fence) CUDA_CHECK(cudaMemset(b.in + count, 0, fenced - bytes));
  CUDA_CHECK(cudaMemset(b.out, 0xFF, fenced));
  return b;
}

static void free_buffers(copy_buffers *b) {
  CUDA_CHECK(cudaFree(b->in));
  CUDA_CHECK(cudaFree(b->out));
}

static int untouched(const float *value) {
  uint32_t bits;
  memcpy(&bits, value, sizeof bits);
  return bits == 0xFFFFFFFFu;
}

/* On the simulator, whether a launch was refused since `before` (the simulator's last error line
 * then): a function that returns cudaErrorInvalidValue itself, without launching, returns what
 * CUDA 13 would, and a GPU cannot tell the two apart; the simulator can, and says so. */
static int launch_was_refused(const char *before) {
#ifdef CUSIM
  const char *now = cusim_last_error_message();
  return strcmp(now, before) != 0 && strstr(now, "in the launch of kernel") != NULL;
#else
  (void)before;
  return 1;
#endif
}

static void report_error(const char *call, int n, cudaError_t status) {
  wb_print_wrapped(stdout, NULL, "  %s(n = %d) returned %s: \"%s\"\n", call, n,
                   cudaGetErrorName(status), cudaGetErrorString(status));
}

/* Compare a copy with its source. A pass is one line (silenced by --quiet); a failure shows the
 * first wrong elements. */
static int check_copy(const wb_args *args, const char *title, const float *got, const float *want,
                      int count) {
  if (memcmp(got, want, (size_t)count * sizeof(float)) == 0) {
    wb_info(args, "%s: all %d element%s copied\n", title, count, WB_PLURAL(count));
    return 1;
  }
  wb_print_wrapped(stdout, NULL, "%s: not every element was copied:\n", title);
  wb_compare_f32("out", got, want, (size_t)count, 0.0, 0.0);
  return 0;
}

static void run_on_device(void *context) {
  copy_buffers *b = context;
  CUDA_CHECK(copy_many_blocks(b->in, b->out, b->n));
}

static void run_reference(void *context) {
  copy_buffers *b = context;
  copy_reference(b->in, b->out, b->n);
}

int main(int argc, char **argv) {
  wb_args args;
  wb_parse_args(argc, argv, &program, &args);
  args.n = wb_seeded_n(&program, &args); /* --seed S: a size of its own (a grade uses one) */
  int n = (int)args.n;
  int one_block_n = n <= 1024 ? n : 1024; /* check 1: a block this big can launch */
  int too_big_n = n > 1024 ? n : 1025;    /* check 2: a block this big cannot */
  int capacity = n > too_big_n ? n : too_big_n;
  int fence = WITH_FENCE ? COPY_BLOCK_SIZE : 0;
  size_t host_bytes = (size_t)capacity * sizeof(float);
  wb_require_host_memory(&program, 2.0 * host_bytes);

  wb_device device;
  wb_device_open(&device);
  wb_require_device_memory(&program, &device, 2.0 * (double)(capacity + fence) * sizeof(float));
  wb_print_header(&program, &device, &args);
  int max_threads = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerBlock, 0));

  float *in = malloc(host_bytes), *out = malloc(host_bytes);
  if (!in || !out)
    wb_usage_error(&program, "cannot allocate %zu bytes of host memory", 2 * host_bytes);
  wb_fill_f32(in, (size_t)capacity, args.seed, 0.0f, 1000.0f);
  const char *failure = NULL;

  /* Check 1: one block of (at most 1024) threads, one thread per element. */
  copy_buffers one = device_buffers(in, one_block_n, 0);
  char title[96];
  snprintf(title, sizeof title, "check 1: copy_one_block, <<<1, %d>>>", one_block_n);
  cudaError_t status = copy_one_block(one.in, one.out, one_block_n);
  if (status != cudaSuccess) {
    wb_print_wrapped(stdout, NULL, "%s: failed\n", title);
    report_error("copy_one_block", one_block_n, status);
    failure = "copy_one_block failed for a size one block can hold (task 2)";
  } else {
    CUDA_CHECK(
        cudaMemcpy(out, one.out, (size_t)one_block_n * sizeof(float), cudaMemcpyDeviceToHost));
    if (!check_copy(&args, title, out, in, one_block_n))
      failure = "copy_one_block did not copy every element (tasks 1 and 2)";
  }
  free_buffers(&one);

  /* Check 2: one block of more threads than a block can hold. The launch must fail, and your
   * function must say so: nothing ran, so out[] holds no copy at all. */
  copy_buffers big = device_buffers(in, too_big_n, 0);
  char before[4096] = "";
#ifdef CUSIM
  snprintf(before, sizeof before, "%s", cusim_last_error_message());
#endif
  status = copy_one_block(big.in, big.out, too_big_n);
  (void)cudaGetLastError(); /* clear it, whatever your function did */
  if (wb_launch_refused(status) && !launch_was_refused(before)) {
    printf("check 2: copy_one_block(n = %d) returned %s,\n"
           "  but nothing was launched: the error must be CUDA's answer to\n"
           "  <<<1, %d>>>, not yours (the simulator sees the launch is missing; a GPU\n"
           "  could not tell).\n",
           too_big_n, cudaGetErrorName(status), too_big_n);
    if (!failure) failure = "copy_one_block returned an error of its own (task 2: ONE block of n)";
  } else if (wb_launch_refused(status)) {
    CUDA_CHECK(cudaMemcpy(out, big.out, sizeof(float), cudaMemcpyDeviceToHost));
    wb_info(&args, "check 2: copy_one_block, <<<1, %d>>>: the launch was refused, as it must be:\n",
            too_big_n);
    if (!args.quiet) report_error("copy_one_block", too_big_n, status);
    wb_info(&args, "  (a block holds at most %d threads on this device; out[0] is %s)\n",
            max_threads, untouched(out) ? "untouched: no thread ran" : "written?!");
  } else {
    printf("check 2: copy_one_block, <<<1, %d>>>: this launch cannot start, since a\n"
           "  block holds at most %d threads, but copy_one_block(n = %d) returned\n"
           "  %s (\"%s\")",
           too_big_n, max_threads, too_big_n, cudaGetErrorName(status), cudaGetErrorString(status));
    if (status == cudaSuccess)
      printf(" instead of an\n"
             "  error (cudaErrorInvalidValue on CUDA 13). Does copy_one_block launch ONE\n"
             "  block of n threads, and return what launch_result() says?\n");
    else
      printf("\n");
    if (!failure) failure = "a block too big to start was not reported (task 2: ONE block of n)";
  }
  free_buffers(&big);

  /* Check 3: blocks of COPY_BLOCK_SIZE threads, enough to cover n; the last block usually runs
   * past the end, and those threads must not touch memory. */
  int blocks = (n + COPY_BLOCK_SIZE - 1) / COPY_BLOCK_SIZE;
  int idle_threads = blocks * COPY_BLOCK_SIZE - n; /* threads of the last block with no element */
  copy_buffers many = device_buffers(in, n, fence);
  status = copy_many_blocks(many.in, many.out, n);
  int copied = 0;
  snprintf(title, sizeof title,
           "check 3: copy_many_blocks, %d element%s in blocks of %d (<<<%d, %d>>>)", n,
           WB_PLURAL(n), COPY_BLOCK_SIZE, blocks, COPY_BLOCK_SIZE);
  if (status != cudaSuccess) {
    wb_print_wrapped(stdout, NULL, "%s: failed\n", title);
    report_error("copy_many_blocks", n, status);
    if (!failure) failure = "copy_many_blocks failed (task 3: <<<blocks >= 1, COPY_BLOCK_SIZE>>>)";
  } else {
    CUDA_CHECK(cudaMemcpy(out, many.out, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost));
    copied = check_copy(&args, title, out, in, n);
    if (!copied && !failure)
      failure = "copy_many_blocks missed elements (task 3: round up; task 1: blockIdx.x)";
  }
  if (copied && fence) {
    int written = (int)wb_fence_written(many.out + n, COPY_BLOCK_SIZE, sizeof(float));
    if (written) {
      wb_print_wrapped(stdout, "  ",
                       "  %d element(s) past the end were written (out[%d] onward): the %d "
                       "thread(s) of the last block that have no element must do nothing. Here "
                       "they landed in a fence this driver put after the array; in your own "
                       "programs that memory belongs to something else.\n",
                       written, n, idle_threads);
      if (!failure) failure = "threads past the end wrote to memory (task 1: the bounds check)";
    } else if (idle_threads) {
      wb_info(&args,
              "  and the %d thread(s) of the last block with no element left memory alone: yes\n",
              idle_threads);
    } else {
      wb_info(&args, "  (%d is a multiple of %d: this time no thread was past the end)\n", n,
              COPY_BLOCK_SIZE);
    }
  }

  /* Figures: the copy reads and writes every element once, so bytes moved = 2 * n * 4. */
  if (!failure && !args.quiet) {
    copy_buffers host = {in, out, n};
    double bytes = 2.0 * n * sizeof(float);
    double cpu_ms = wb_time_host_ms(run_reference, &host, 1, args.repeat);
    double gpu_ms = wb_time_cuda_ms(run_on_device, &many, 1, args.repeat);
    wb_print_figure(&args, "CPU loop", cpu_ms, bytes, NULL, 0);
    wb_print_figure(&args, "copy_many_blocks", gpu_ms, bytes, &device, cpu_ms);
  }

  free_buffers(&many);
  free(in);
  free(out);
  if (failure) return wb_finish(0, failure);
  return wb_finish(1, NULL);
}
