/* Lesson 01 driver: runs your squares_on_device() and checks it against the CPU reference, then
 * checks that your function reports a launch that could not start, and that it waits for the
 * kernel before it returns. You do not need to edit this file. */
#include "lesson.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const wb_program program = {
    .program = "01-kernels-vs-functions",
    .summary = "fill out[i] = i*i in a kernel; report launch errors",
    .default_n = 1 << 24,
    .min_n = 1,
    .max_n = 1 << 30,
    .n_meaning = "number of floats",
    .default_repeat = 5,
};

/* Check 3 looks at no more than this many elements (pinned host memory is precious). */
enum { WAIT_CHECK_N = 1 << 20 };

typedef struct {
  float *d_out;
  int n;
} timing_context;

static void run_on_device(void *context) {
  timing_context *c = context;
  CUDA_CHECK(squares_on_device(c->d_out, c->n, 256));
}

static void run_reference(void *context) {
  timing_context *c = context;
  squares_reference(c->d_out, c->n); /* here d_out is a host buffer */
}

int main(int argc, char **argv) {
  wb_args args;
  wb_parse_args(argc, argv, &program, &args);
  args.n = wb_seeded_n(&program, &args); /* --seed S: a size of its own (a grade uses one) */
  int n = (int)args.n;
  size_t bytes = (size_t)n * sizeof(float);
  wb_require_host_memory(&program, 2.0 * bytes);

  wb_device device;
  wb_device_open(&device);
  wb_require_device_memory(&program, &device, (double)bytes);
  wb_print_header(&program, &device, &args);

  float *got = malloc(bytes), *want = malloc(bytes);
  if (!got || !want)
    wb_usage_error(&program, "cannot allocate %zu bytes of host memory", 2 * bytes);
  squares_reference(want, n);

  /* Fill the device buffer with 0xFF bytes (NaN as floats), so elements nobody wrote show up. */
  float *d_out = NULL;
  CUDA_CHECK(cudaMalloc((void **)&d_out, bytes));
  CUDA_CHECK(cudaMemset(d_out, 0xFF, bytes));

  /* Check 1: the numbers. */
  cudaError_t status = squares_on_device(d_out, n, 256);
  if (status != cudaSuccess) {
    wb_print_wrapped(stdout, "  ", "squares_on_device returned %s: %s\n", cudaGetErrorName(status),
                     cudaGetErrorString(status));
    if (status == cudaErrorIllegalAddress)
      return wb_finish(0, "a thread wrote past the end of out (task 2: keep the if (i < n))");
    return wb_finish(0, "squares_on_device reported an error for a valid launch");
  }
  CUDA_CHECK(cudaMemcpy(got, d_out, bytes, cudaMemcpyDeviceToHost));
  size_t wrong = wb_compare_f32("out", got, want, (size_t)n, 0.0, 1e-6);
  wb_info(&args, "check 1: out[i] == i*i for all %d element%s: %s\n", n, WB_PLURAL(n),
          wrong ? "no" : "yes");

  /* Check 2: a launch that cannot start (2048 threads per block; the limit is 1024) must be
   * reported, not ignored. */
  cudaError_t bad_status = squares_on_device(d_out, n, 2048);
  int reported = wb_launch_refused(bad_status);
  (void)cudaGetLastError(); /* clear it, whatever your function did */
  if (reported)
    wb_info(&args, "check 2: a launch with 2048 threads per block is reported as %s: yes\n",
            cudaGetErrorName(bad_status));
  else
    wb_print_wrapped(
        stdout, NULL,
        "check 2: a launch with 2048 threads per block never ran, but squares_on_device "
        "returned %s instead of the refusal (cudaErrorInvalidValue on CUDA 13)\n",
        cudaGetErrorName(bad_status));
  if (!reported && bad_status == cudaSuccess)
    wb_print_wrapped(stdout, "  ",
                     "  A refused launch leaves nothing to wait for, so "
                     "cudaDeviceSynchronize() returns cudaSuccess: the error is only in "
                     "cudaGetLastError(), and a second call to it returns cudaSuccess (the "
                     "first reset it). Keep what it returned and return that.\n");

  /* Check 3: does squares_on_device wait for its kernel? Here the output is host memory that the
   * kernel writes directly (mapped memory, lesson 05), so no cudaMemcpy stands between the
   * function's return and the host reading the result: whatever is not written yet shows. */
  int waited = 1;
  if (!wrong) {
    int check_n = n < WAIT_CHECK_N ? n : WAIT_CHECK_N;
    size_t check_bytes = (size_t)check_n * sizeof(float);
    float *h_mapped = NULL, *d_mapped = NULL;
    CUDA_CHECK(cudaHostAlloc((void **)&h_mapped, check_bytes, cudaHostAllocMapped));
    CUDA_CHECK(cudaHostGetDevicePointer((void **)&d_mapped, h_mapped, 0));
    memset(h_mapped, 0xFF, check_bytes);
    status = squares_on_device(d_mapped, check_n, 256);
    /* Look at once, before any other CUDA call here could wait for the kernel. */
    int complete = memcmp(h_mapped, want, check_bytes) == 0;
    CUDA_CHECK(cudaDeviceSynchronize());
    int complete_later = memcmp(h_mapped, want, check_bytes) == 0;
    waited = status == cudaSuccess && complete;
    if (status != cudaSuccess)
      printf("check 3: squares_on_device returned %s for a valid launch\n",
             cudaGetErrorName(status));
    else if (complete)
      wb_info(&args, "check 3: when squares_on_device returns, its kernel has finished: yes\n");
    else if (complete_later)
      wb_print_wrapped(stdout, "  ",
                       "check 3: squares_on_device returned before its kernel had finished: "
                       "read at once, the output was incomplete, and only a later "
                       "cudaDeviceSynchronize() completed it. A launch does not wait: your "
                       "function must.\n");
    else
      printf("check 3: squares_on_device(n = %d) did not fill the output, even after a\n"
             "  cudaDeviceSynchronize()\n",
             check_n);
    CUDA_CHECK(cudaFreeHost(h_mapped));
  }

  /* Figures: the kernel (with its synchronization) against the CPU loop. */
  if (!wrong && reported && waited) {
    timing_context device_context = {d_out, n}, host_context = {got, n};
    double cpu_ms = wb_time_host_ms(run_reference, &host_context, 1, args.repeat);
    double gpu_ms = wb_time_cuda_ms(run_on_device, &device_context, 1, args.repeat);
    wb_print_figure(&args, "CPU loop", cpu_ms, (double)bytes, NULL, 0);
    wb_print_figure(&args, "kernel (launch + sync)", gpu_ms, (double)bytes, &device, cpu_ms);
  }

  CUDA_CHECK(cudaFree(d_out));
  free(got);
  free(want);

  /* Check 4, the last CUDA work of this program: a kernel that fails while it runs must be
   * reported too. The launch is accepted; the error comes only from cudaDeviceSynchronize(), and
   * it poisons the context for good (every later CUDA call fails too), which is why nothing comes
   * after it. On a GPU the kernel writes through NULL, an illegal address everywhere. The
   * simulator ends the program at a NULL write (naming the thread), but reports a write to
   * freed device memory as the same illegal address, so there the pointer is a freed one. */
  int run_error_reported = 1;
  if (!wrong && reported && waited) {
    float *d_bad = NULL;
#ifdef CUSIM
    CUDA_CHECK(cudaMalloc((void **)&d_bad, 32 * sizeof(float)));
    CUDA_CHECK(cudaFree(d_bad));
#endif
    cudaError_t fault_status = squares_on_device(d_bad, 32, 32);
    run_error_reported = fault_status != cudaSuccess;
    if (run_error_reported)
      wb_info(&args, "check 4: a kernel that writes to a bad address is reported as %s: yes\n",
              cudaGetErrorName(fault_status));
    else
      wb_print_wrapped(stdout, "  ",
                       "check 4: a kernel that wrote to a bad address failed while it ran, but "
                       "squares_on_device returned cudaSuccess: that error comes only from "
                       "cudaDeviceSynchronize(), so return what it returns.\n");
  }

  if (wrong) return wb_finish(0, "out[i] is not i*i (see the mismatches above; tasks 1 and 2)");
  if (!reported)
    return wb_finish(0,
                     "a failed launch was not reported (task 3: keep cudaGetLastError()'s error)");
  if (!waited)
    return wb_finish(0,
                     "returned before its kernel had finished (task 3: cudaDeviceSynchronize())");
  if (!run_error_reported)
    return wb_finish(0,
                     "a failed kernel came back as cudaSuccess (task 3: keep the sync's status)");
  return wb_finish(1, NULL);
}
