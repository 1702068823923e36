/* Lesson 01 driver: runs your squares_on_device() and checks it against the CPU reference, then
 * checks that your function reports a launch that could not start. You do not need to edit this
 * file. */
#include "lesson.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const wb_program program = {
    .program = "01-kernels-vs-functions",
    .summary = "fill an array with i*i from a kernel, and report launch errors",
    .default_n = 1 << 24,
    .min_n = 1,
    .max_n = 1 << 30,
    .n_meaning = "number of floats",
    .default_repeat = 5,
};

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
    printf("squares_on_device returned %s: %s\n", cudaGetErrorName(status),
           cudaGetErrorString(status));
    return wb_finish(0, "squares_on_device reported an error for a valid launch");
  }
  CUDA_CHECK(cudaMemcpy(got, d_out, bytes, cudaMemcpyDeviceToHost));
  size_t wrong = wb_compare_f32("out", got, want, (size_t)n, 0.0, 1e-6);
  wb_info(&args, "check 1: out[i] == i*i for all %d elements: %s\n", n, wrong ? "no" : "yes");

  /* Check 2: a launch that cannot start (2048 threads per block; the limit is 1024) must be
   * reported, not ignored. */
  cudaError_t bad_status = squares_on_device(d_out, n, 2048);
  int reported = bad_status == cudaErrorInvalidConfiguration;
  (void)cudaGetLastError(); /* clear it, whatever your function did */
  if (reported)
    wb_info(&args, "check 2: a launch with 2048 threads per block is reported as %s: yes\n",
            cudaGetErrorName(bad_status));
  else
    printf("check 2: a launch with 2048 threads per block never ran, but squares_on_device "
           "returned %s instead of cudaErrorInvalidConfiguration\n",
           cudaGetErrorName(bad_status));

  /* Figures: the kernel (with its synchronization) against the CPU loop. */
  if (!wrong && reported) {
    timing_context device_context = {d_out, n}, host_context = {got, n};
    double cpu_ms = wb_time_host_ms(run_reference, &host_context, 1, args.repeat);
    double gpu_ms = wb_time_cuda_ms(run_on_device, &device_context, 1, args.repeat);
    wb_print_figure(&args, "CPU loop", cpu_ms, (double)bytes, NULL, 0);
    wb_print_figure(&args, "kernel (launch + sync)", gpu_ms, (double)bytes, &device, cpu_ms);
  }

  CUDA_CHECK(cudaFree(d_out));
  free(got);
  free(want);
  if (wrong) return wb_finish(0, "out[i] is not i*i (see the mismatches above)");
  if (!reported) return wb_finish(0, "a failed launch was not reported (task 3)");
  return wb_finish(1, NULL);
}
