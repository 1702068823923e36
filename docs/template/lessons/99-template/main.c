/* Lesson 99 (template) driver: checks your scaled array against the CPU's, then times both. You
 * do not need to edit this file. */
#include "lesson.h"

#include <stdio.h>
#include <stdlib.h>

static const wb_program program = {
    .program = "99-template",
    .summary = "scale an array on the device, one thread per element",
    .default_n = 1 << 24,
    .min_n = 1,
    .max_n = 1 << 28,
    .n_meaning = "number of floats",
    .default_repeat = 5,
};

typedef struct {
  const float *in;
  float *out;
  int n;
} scale_job;

static const float factor = 2.5f;

static void run_on_device(void *context) {
  scale_job *job = context;
  CUDA_CHECK(scale_on_device(job->in, job->out, factor, job->n));
}

static void run_reference(void *context) {
  scale_job *job = context;
  scale_reference(job->in, job->out, factor, job->n);
}

int main(int argc, char **argv) {
  wb_args args;
  wb_parse_args(argc, argv, &program, &args);
  args.n = wb_seeded_n(&program, &args); /* --seed S: a size of its own (a grade uses one) */
  int n = (int)args.n;
  size_t bytes = (size_t)n * sizeof(float);
  wb_require_host_memory(&program, 3.0 * (double)bytes);

  wb_device device;
  wb_device_open(&device);
  wb_require_device_memory(&program, &device, 2.0 * (double)bytes);
  wb_print_header(&program, &device, &args);

  float *in = malloc(bytes), *out = malloc(bytes), *want = malloc(bytes);
  if (!in || !out || !want)
    wb_usage_error(&program, "cannot allocate %zu bytes of host memory", 3 * bytes);
  wb_fill_f32(in, (size_t)n, args.seed, -100.0f, 100.0f);
  scale_reference(in, want, factor, n);

  float *d_in = NULL, *d_out = NULL;
  CUDA_CHECK(cudaMalloc((void **)&d_in, bytes));
  CUDA_CHECK(cudaMalloc((void **)&d_out, bytes));
  CUDA_CHECK(cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_out, 0, bytes));

  const char *failure = NULL;
  cudaError_t status = scale_on_device(d_in, d_out, factor, n);
  if (status != cudaSuccess) {
    printf("check: scale_on_device returned %s\n", cudaGetErrorName(status));
    failure = "scale_on_device reported an error for a valid launch (task 2)";
  } else {
    CUDA_CHECK(cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost));
    if (wb_compare_f32("out", out, want, (size_t)n, 0.0, 0.0) == 0)
      wb_info(&args, "check: out[i] = %.1f * in[i] for all %d elements\n", (double)factor, n);
    else
      failure = "out[i] is not factor * in[i] (tasks 1 and 2)";
  }

  /* Figures: each element is read once and written once. */
  if (!failure && !args.quiet) {
    scale_job host = {in, out, n}, dev = {d_in, d_out, n};
    double moved = 2.0 * (double)bytes;
    double cpu_ms = wb_time_host_ms(run_reference, &host, 1, args.repeat);
    double gpu_ms = wb_time_cuda_ms(run_on_device, &dev, 1, args.repeat);
    wb_print_figure(&args, "CPU loop", cpu_ms, moved, NULL, 0);
    wb_print_figure(&args, "scale_on_device", gpu_ms, moved, &device, cpu_ms);
  }

  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  free(in);
  free(out);
  free(want);
  if (failure) return wb_finish(0, failure);
  return wb_finish(1, NULL);
}
