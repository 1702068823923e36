/* Lesson 15 driver: runs your fill kernel, then your smoothing kernel, each on its own, and
 * stops at the first error a kernel reports (on the simulator: its memory checker's report,
 * naming the line and the task). Then the whole pipeline on managed memory, whose peak the host
 * reads. You do not need to edit this file. */
#include "lesson.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const wb_program program = {
    .program = "15-debugging",
    .summary = "four planted bugs, found with the sanitizers and fixed",
    .default_n = 1 << 24,
    .sim_default_n = 100000,
    .min_n = 1,
    .max_n = 1 << 28,
    .n_meaning = "floats in the signal",
    .default_repeat = 1,
};

/* Wait for the queued kernels; on an error, the FAIL line names the task: on the simulator, the
 * task of the line its report names, or `unnamed` when the report names no task's line (a read
 * of uninitialized shared memory is reported at the line that reads it); elsewhere `tasks`. */
static const char *wait_for(const char *kernel, const char *tasks, const char *unnamed) {
  cudaError_t status = cudaDeviceSynchronize();
  if (status == cudaSuccess) return NULL;
  static char reason[96];
#ifdef CUSIM
  char where[16];
  snprintf(where, sizeof where, "%s", unnamed);
  if (cusim_last_error_task() > 0)
    snprintf(where, sizeof where, "task %d", cusim_last_error_task());
  snprintf(reason, sizeof reason, "%s: %s in %s (cusim: error says why)", kernel,
           cudaGetErrorName(status), where);
  /* The FAIL line fits 80 columns: a long error name (cudaErrorSynchronizationError) drops the
   * pointer to the cusim: line above it. */
  if (strlen(reason) > 74)
    snprintf(reason, sizeof reason, "%s: %s in %s", kernel, cudaGetErrorName(status), where);
  (void)tasks;
#else
  snprintf(reason, sizeof reason, "%s: %s (%s)", kernel, cudaGetErrorName(status), tasks);
  (void)unnamed;
#endif
  return reason;
}

/* The buffers, freed on every way out (a sanitizer run would list them as leaks otherwise). */
static float *signal, *smoothed, *want_signal, *want_smoothed;

/* Free everything and give the verdict. After a kernel's error a GPU refuses every later call,
 * cudaFree included: its status is not checked here. */
static int finish(int passed, const char *reason) {
  (void)cudaFree(signal);
  (void)cudaFree(smoothed);
  free(want_signal);
  free(want_smoothed);
  return wb_finish(passed, reason);
}

int main(int argc, char **argv) {
  wb_args args;
  wb_parse_args(argc, argv, &program, &args);
  args.n = wb_seeded_n(&program, &args); /* --seed S: a size of its own (a grade uses one) */
  int n = (int)args.n;
  size_t bytes = (size_t)n * sizeof(float);
  unsigned seed = (unsigned)args.seed;
  wb_require_host_memory(&program, 2.0 * (double)bytes);

  wb_device device;
  wb_device_open(&device);
  wb_require_device_memory(&program, &device, 2.0 * (double)bytes);
  wb_print_header(&program, &device, &args);

  want_signal = malloc(bytes), want_smoothed = malloc(bytes);
  if (!want_signal || !want_smoothed)
    wb_usage_error(&program, "cannot allocate %zu bytes of host memory", 2 * bytes);
  signal_reference(want_signal, n, seed);
  wb_input_record(want_signal, bytes); /* the signal is the seed's: the input digest's test */
  smooth_reference(want_signal, want_smoothed, n);

  CUDA_CHECK(cudaMallocManaged((void **)&signal, bytes, cudaMemAttachGlobal));
  CUDA_CHECK(cudaMallocManaged((void **)&smoothed, bytes, cudaMemAttachGlobal));

  /* Check 1: the signal alone, over a signal full of NaN so that elements nobody wrote show. */
  memset(signal, 0xFF, bytes);
  CUDA_CHECK(fill_signal(signal, n, seed));
  const char *error = wait_for("fill_kernel", "task 1", "task 1");
  if (error) return finish(0, error);
  int wrong = (int)wb_compare_f32("signal", signal, want_signal, (size_t)n, 0.0, 0.0);
  wb_info(&args, "check 1: fill %d float%s: %s\n", n, WB_PLURAL(n), wrong ? "no" : "yes");
  if (wrong) return finish(0, "the signal is wrong (task 1)");

  /* Check 2: the smoothing alone, on the right signal. */
  memcpy(signal, want_signal, bytes);
  memset(smoothed, 0xFF, bytes);
  CUDA_CHECK(smooth(signal, smoothed, n));
  error = wait_for("smooth_kernel", "tasks 2 and 3", "task 3");
  if (error) return finish(0, error);
  wrong = (int)wb_compare_f32("smoothed", smoothed, want_smoothed, (size_t)n, 1e-6, 1e-6);
  int blocks = (n + BLOCK - 1) / BLOCK;
  wb_info(&args, "check 2: smooth %d float%s, %d block%s of %d: %s\n", n, WB_PLURAL(n), blocks,
          WB_PLURAL(blocks), BLOCK, wrong ? "no" : "yes");
  if (wrong) return finish(0, "the smoothed signal is wrong (tasks 2 and 3)");

  /* Check 3: the pipeline; the host reads the peak from managed memory. */
  memset(signal, 0xFF, bytes);
  memset(smoothed, 0xFF, bytes);
  float peak = pipeline_peak(signal, smoothed, n, seed);
  error = wait_for("the pipeline", "task 4", "task 4");
  if (error) return finish(0, error);
  /* The peak the host should have read: the largest value of the finished smoothed signal (check
   * 2 proved the kernels right; the comparison is exact, float against float). */
  float want_peak = 0.0f;
  for (int i = 0; i < n; ++i)
    if (smoothed[i] > want_peak) want_peak = smoothed[i];
  int peak_right = peak == want_peak;
  wb_info(&args, "check 3: the pipeline's peak %.6f (want %.6f): %s\n", peak, want_peak,
          peak_right ? "yes" : "no");
  if (!peak_right)
    return finish(0, "task 4: the host read managed memory before the kernels finished");
#ifdef CUSIM
  /* Check 4 (task 4): the pipeline checks its wait. The simulator makes the next kernel fail
   * when it runs, as a kernel that faults does: both launches succeed, and only
   * cudaDeviceSynchronize() reports the error. The pipeline must return -1, not a peak read from
   * memory the kernels never finished. No GPU API can plant such an error, so this check runs on
   * the simulator only; the error is sticky (as on a GPU), so it is the last check. */
  memset(smoothed, 0xFF, bytes);
  cusim_plant_kernel_failure();
  float failed_peak = pipeline_peak(signal, smoothed, n, seed);
  int reported = failed_peak == -1.0f;
  wb_info(&args, "check 4: a kernel fails; the pipeline reports it (returns -1): %s\n",
          reported ? "yes" : "no");
  if (!reported)
    return finish(0, "task 4: a kernel failed: check what cudaDeviceSynchronize() returns");
#endif
  return finish(1, NULL);
}
