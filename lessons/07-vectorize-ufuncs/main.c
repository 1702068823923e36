/* Lesson 07 driver: checks your GPU ufuncs against the serial CPU loops made from the same scalar
 * functions, then times the serial loop, the OpenMP loop, the kernel alone and the kernel with
 * its copies (what the Python original's timer measured). You do not need to edit this file. */
#include "lesson.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(int) == sizeof(float), "the float and int passes share buffers");

static const wb_program program = {
    .program = "07-vectorize-ufuncs",
    .summary = "one scalar function, three loops: serial C, OpenMP, CUDA",
    .default_n = 320000000, /* the Python original's vectorAdd size */
    .sim_default_n = 10000000,
    .min_n = 1,
    .max_n = 2000000000,
    .n_meaning = "elements per array",
    .default_repeat = 5,
    .accepts_threads = 1,
};

/* One IEEE addition is correctly rounded everywhere, so a + b must match the CPU exactly. The
 * expression is seven roundings on the CPU, but a GPU fuses a*10+2 and (b+2)*10-5 into fused
 * multiply-adds (one rounding each instead of two), so its last bits may differ: rtol 1e-5 is
 * about 80 float ulps, far above the few an FMA changes. atol covers results near zero, where
 * a*10+2 cancels and a relative error means nothing: with inputs in [-1, 1] a fused multiply-add
 * moves such a result by at most about 1.5e-5 (half an ulp of a*10 near -2, times 25 * 5). */
static const double expression_atol = 1e-3, expression_rtol = 1e-5;

/* The int32 inputs: |a|, |b| <= 2000 keeps every intermediate of the expression below 2^31 - 1. */
enum { INT_INPUT_LIMIT = 2000 };

typedef cudaError_t (*gpu_ufunc_f32)(const float *, const float *, float *, long long);
typedef void (*cpu_ufunc_f32)(const float *, const float *, float *, long long);

typedef struct {
  const float *a, *b;
  float *out;
  float *d_a, *d_b, *d_out;
  long long n;
  gpu_ufunc_f32 gpu;
  cpu_ufunc_f32 cpu;
} timing_context;

static size_t float_bytes(long long n) {
  return (size_t)n * sizeof(float);
}

static void run_cpu(void *context) {
  timing_context *c = context;
  c->cpu(c->a, c->b, c->out, c->n);
}

static void run_kernel(void *context) {
  timing_context *c = context;
  CUDA_CHECK(c->gpu(c->d_a, c->d_b, c->d_out, c->n));
}

/* Host arrays in, host array out, device buffers already allocated. */
static void run_copies_and_kernel(void *context) {
  timing_context *c = context;
  size_t bytes = float_bytes(c->n);
  CUDA_CHECK(cudaMemcpy(c->d_a, c->a, bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(c->d_b, c->b, bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(c->gpu(c->d_a, c->d_b, c->d_out, c->n));
  CUDA_CHECK(cudaMemcpy(c->out, c->d_out, bytes, cudaMemcpyDeviceToHost));
}

static void run_from_host(void *context) {
  timing_context *c = context;
  CUDA_CHECK(add_f32_from_host(c->a, c->b, c->out, c->n));
}

/* Run a GPU ufunc on device data that is already there; copy the result into got. */
static void run_on_device_f32(gpu_ufunc_f32 gpu, const float *d_a, const float *d_b, float *d_out,
                              float *got, long long n) {
  size_t bytes = float_bytes(n);
  CUDA_CHECK(cudaMemset(d_out, 0xFF, bytes)); /* NaN everywhere: elements nobody wrote show up */
  CUDA_CHECK(gpu(d_a, d_b, d_out, n));
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(got, d_out, bytes, cudaMemcpyDeviceToHost));
}

static void fill_float_inputs(float *a, float *b, long long n, uint64_t seed, float *d_a,
                              float *d_b) {
  wb_fill_f32(a, (size_t)n, seed, -1.0f, 1.0f);
  wb_fill_f32(b, (size_t)n, seed + 0x5eed, -1.0f, 1.0f);
  CUDA_CHECK(cudaMemcpy(d_a, a, float_bytes(n), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_b, b, float_bytes(n), cudaMemcpyHostToDevice));
}

/* Host arrays get a guard after their n elements (up to 16 MiB), so that a copy of the wrong size
 * in add_f32_from_host (sizeof a pointer for sizeof a float, say) lands there, where the driver
 * sees it, and not on the heap's own bookkeeping. */
static size_t guard_bytes(size_t bytes) {
  size_t most = (size_t)16 << 20;
  return bytes < most ? bytes : most;
}

static size_t guard_written(const void *guard, size_t count) {
  const unsigned char *byte = guard;
  size_t written = 0;
  for (size_t i = 0; i < count; ++i) written += byte[i] != 0xA5;
  return written;
}

static int64_t largest_ulp_difference(const float *got, const float *want, long long n) {
  int64_t largest = 0;
  for (long long i = 0; i < n; ++i) {
    int64_t d = wb_ulp_distance_f32(got[i], want[i]);
    if (d > largest) largest = d;
  }
  return largest;
}

static void print_figures(const wb_args *args, const wb_device *device, const char *title,
                          timing_context *c, cpu_ufunc_f32 openmp, int threads, int with_seed) {
  double bytes = 3.0 * (double)float_bytes(c->n); /* read a and b, write out */
  char label[64];
  wb_info(args, "%s\n", title);
  cpu_ufunc_f32 serial = c->cpu;
  double serial_ms = wb_time_host_ms(run_cpu, c, 1, args->repeat);
  wb_print_figure(args, "CPU serial loop", serial_ms, bytes, NULL, 0);
  c->cpu = openmp;
  snprintf(label, sizeof label, "CPU OpenMP loop, %d thread%s", threads, threads == 1 ? "" : "s");
  wb_print_figure(args, label, wb_time_host_ms(run_cpu, c, 1, args->repeat), bytes, NULL,
                  serial_ms);
  c->cpu = serial;
  wb_print_figure(args, "GPU kernel only", wb_time_cuda_ms(run_kernel, c, 1, args->repeat), bytes,
                  device, serial_ms);
  /* Copies are timed on the host clock, as the Python original did: the last copy waits for
   * everything. */
  wb_print_figure(args, "GPU copies + kernel",
                  wb_time_host_ms(run_copies_and_kernel, c, 1, args->repeat), bytes, NULL,
                  serial_ms);
  if (with_seed)
    wb_print_figure(args, "GPU alloc+copy+kernel+free",
                    wb_time_host_ms(run_from_host, c, 1, args->repeat), bytes, NULL, serial_ms);
}

int main(int argc, char **argv) {
  wb_args args;
  wb_parse_args(argc, argv, &program, &args);
  args.n = wb_seeded_n(&program, &args); /* --seed S: a size of its own (a grade uses one) */
  long long n = args.n;
  size_t bytes = float_bytes(n);
  /* Host: a, b, the reference and your result. Device: a, b, out, plus the three arrays
   * add_f32_from_host allocates for itself. */
  size_t guard = guard_bytes(bytes);
  wb_require_host_memory(&program, 4.0 * (double)(bytes + guard));

  wb_device device;
  wb_device_open(&device);
  wb_require_device_memory(&program, &device, 6.0 * (double)bytes);
  wb_print_header(&program, &device, &args);
  int threads = cpu_set_threads(args.cpu_threads);

  /* Four host buffers, used as floats and later as ints (both are 4 bytes). */
  void *a_buffer = malloc(bytes + guard), *b_buffer = malloc(bytes + guard);
  void *want_buffer = malloc(bytes), *got_buffer = malloc(bytes + guard);
  if (!a_buffer || !b_buffer || !want_buffer || !got_buffer)
    wb_usage_error(&program, "cannot allocate %.1f GiB of host memory", 4.0 * bytes / 1073741824.0);
  float *a = a_buffer, *b = b_buffer, *want = want_buffer, *got = got_buffer;
  void *d_a_buffer = NULL, *d_b_buffer = NULL, *d_out_buffer = NULL;
  CUDA_CHECK(cudaMalloc(&d_a_buffer, bytes));
  CUDA_CHECK(cudaMalloc(&d_b_buffer, bytes));
  CUDA_CHECK(cudaMalloc(&d_out_buffer, bytes));
  float *d_a = d_a_buffer, *d_b = d_b_buffer, *d_out = d_out_buffer;
  fill_float_inputs(a, b, n, args.seed, d_a, d_b);

  /* Check 1: vector add, float32, data already on the GPU: exactly the CPU's sums. */
  add_f32_serial(a, b, want, n);
  run_on_device_f32(add_f32_on_device, d_a, d_b, d_out, got, n);
  size_t wrong_add = wb_compare_f32("add_f32", got, want, (size_t)n, 0.0, 0.0);
  wb_info(&args, "check 1: add_f32 on the GPU equals the serial C loop exactly: %s\n",
          wrong_add ? "no" : "yes");

  /* Check 2: the Python original's expression, float32, within the tolerance explained above. */
  original_expression_f32_serial(a, b, want, n);
  run_on_device_f32(original_expression_f32_on_device, d_a, d_b, d_out, got, n);
  size_t wrong_expression = wb_compare_f32("original_expression_f32", got, want, (size_t)n,
                                           expression_atol, expression_rtol);
  wb_info(
      &args,
      "check 2: original_expression_f32 on the GPU matches the serial C loop (atol %g, rtol %g): "
      "%s\n",
      expression_atol, expression_rtol, wrong_expression ? "no" : "yes");
  if (!wrong_expression)
    wb_info(&args, "         largest difference: %lld ulp (a GPU may fuse multiply-adds)\n",
            (long long)largest_ulp_difference(got, want, n));

  /* Check 3: the host-array path, everything the Python original's timer saw. */
  add_f32_serial(a, b, want, n);
  memset(got, 0xFF, bytes);
  memset((char *)got + bytes, 0xA5, guard);
  size_t wrong_from_host = 0;
  long long held_before = wb_device_bytes_held(); /* -1 on a GPU: no exact count there */
  cudaError_t status = add_f32_from_host(a, b, got, n);
  long long kept = held_before >= 0 ? wb_device_bytes_held() - held_before : 0;
  size_t past_end = guard_written((char *)got + bytes, guard);
  if (status != cudaSuccess) {
    wb_print_wrapped(stdout, "  ", "add_f32_from_host returned %s: %s\n", cudaGetErrorName(status),
                     cudaGetErrorString(status));
    (void)cudaGetLastError();                     /* clear it, so the checks below still run */
    if (cudaDeviceSynchronize() != cudaSuccess) { /* an error that ends every later call */
      wb_print_wrapped(stdout, "  ",
                       "  add_f32_from_host made an illegal memory access, and every later "
                       "CUDA call fails: does its kernel get the device arrays, and do cudaMalloc "
                       "and cudaMemcpy count bytes, n * sizeof(float)?\n");
      return wb_finish(0, "add_f32_from_host made an illegal memory access (task 3)");
    }
    wrong_from_host = (size_t)n;
  } else {
    wrong_from_host = wb_compare_f32("add_f32_from_host", got, want, (size_t)n, 0.0, 0.0);
  }
  if (past_end) {
    wb_print_wrapped(stdout, "  ",
                     "  add_f32_from_host wrote %zu bytes past the end of out: it must copy n * "
                     "sizeof(float) bytes (sizeof a is the size of a pointer)\n",
                     past_end);
    wrong_from_host += past_end;
  }
  wb_info(&args, "check 3: add_f32_from_host (host arrays in and out) equals the C loop: %s\n",
          wrong_from_host ? "no" : "yes");
  if (kept > 0)
    wb_print_wrapped(stdout, "  ",
                     "  add_f32_from_host kept %lld bytes of device memory after it returned: "
                     "every cudaMalloc it makes needs its cudaFree (on a GPU that memory stays "
                     "taken until the program ends)\n",
                     kept);

  /* Check 3 again, with a step that fails: the copy back into a NULL array is refused, and the
   * function must still free what it allocated. Only where the memory held is counted exactly
   * (the simulator); its error line for the refused copy is expected. */
  long long kept_after_error = 0;
  if (!wrong_from_host && kept == 0 && held_before >= 0) {
    wb_info(&args, "check 3: a copy back into NULL must fail (the cusim: error line is "
                   "expected),\n");
    fflush(stdout);
    status = add_f32_from_host(a, b, NULL, n);
    (void)cudaGetLastError();
    kept_after_error = wb_device_bytes_held() - held_before;
    wb_info(&args, "         and add_f32_from_host frees its device memory all the same: %s\n",
            kept_after_error > 0 ? "no" : "yes");
    if (kept_after_error > 0)
      wb_print_wrapped(stdout, "  ",
                       "  add_f32_from_host returned %s and kept %lld bytes of device memory: "
                       "free all three arrays at the end, after an error too (cudaFree(NULL) "
                       "does nothing)\n",
                       cudaGetErrorName(status), kept_after_error);
  }

  /* Check 4: the OpenMP loops (made by the same macro) agree with the serial ones. */
  add_f32_openmp(a, b, got, n);
  size_t wrong_openmp = wb_compare_f32("add_f32_openmp", got, want, (size_t)n, 0.0, 0.0);
  original_expression_f32_serial(a, b, want, n);
  original_expression_f32_openmp(a, b, got, n);
  wrong_openmp += wb_compare_f32("original_expression_f32_openmp", got, want, (size_t)n, 0.0, 0.0);
  wb_info(&args, "check 4: the OpenMP loops (%d threads) equal the serial loops: %s\n", threads,
          wrong_openmp ? "no" : "yes");

  /* Check 5: int32, the second signature. Integers are exact: every element must be equal. */
  int *a_int = a_buffer, *b_int = b_buffer, *want_int = want_buffer, *got_int = got_buffer;
  int *d_a_int = d_a_buffer, *d_b_int = d_b_buffer, *d_out_int = d_out_buffer;
  wb_fill_i32(a_int, (size_t)n, args.seed, -INT_INPUT_LIMIT, INT_INPUT_LIMIT);
  wb_fill_i32(b_int, (size_t)n, args.seed + 0x5eed, -INT_INPUT_LIMIT, INT_INPUT_LIMIT);
  CUDA_CHECK(cudaMemcpy(d_a_int, a_int, bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_b_int, b_int, bytes, cudaMemcpyHostToDevice));
  original_expression_i32_serial(a_int, b_int, want_int, n);
  CUDA_CHECK(cudaMemset(d_out_int, 0xFF, bytes));
  CUDA_CHECK(original_expression_i32_on_device(d_a_int, d_b_int, d_out_int, n));
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(got_int, d_out_int, bytes, cudaMemcpyDeviceToHost));
  size_t wrong_int = wb_compare_i32("original_expression_i32", got_int, want_int, (size_t)n);
  long long largest = 0;
  for (long long i = 0; i < n; ++i) {
    long long magnitude = llabs((long long)want_int[i]);
    if (magnitude > largest) largest = magnitude;
  }
  wb_info(&args, "check 5: original_expression_i32 on the GPU equals the serial C loop: %s\n",
          wrong_int ? "no" : "yes");
  wb_info(&args, "         inputs in [-%d, %d], largest |result| %lld (INT_MAX is %d)\n",
          INT_INPUT_LIMIT, INT_INPUT_LIMIT, largest, INT_MAX);

  int passed = !wrong_add && !wrong_expression && !wrong_from_host && !wrong_openmp && !wrong_int;
  if (passed) {
    fill_float_inputs(a, b, n, args.seed, d_a, d_b);
    timing_context context = {a, b, got, d_a, d_b, d_out, n, add_f32_on_device, add_f32_serial};
    print_figures(&args, &device, "vector add, float32 (3 arrays move through memory):", &context,
                  add_f32_openmp, threads, 1);
    context.gpu = original_expression_f32_on_device;
    context.cpu = original_expression_f32_serial;
    print_figures(&args, &device, "the original's expression, float32:", &context,
                  original_expression_f32_openmp, threads, 0);
  }

  CUDA_CHECK(cudaFree(d_a_buffer));
  CUDA_CHECK(cudaFree(d_b_buffer));
  CUDA_CHECK(cudaFree(d_out_buffer));
  free(a_buffer);
  free(b_buffer);
  free(want_buffer);
  free(got_buffer);
  if (wrong_add) return wb_finish(0, "add_f32_on_device is wrong (tasks 1 and 2)");
  if (wrong_expression)
    return wb_finish(0, "original_expression_f32_on_device is wrong (tasks 1, 2)");
  if (past_end) return wb_finish(0, "add_f32_from_host wrote past the end of out (task 3)");
  if (wrong_from_host) return wb_finish(0, "add_f32_from_host did not fill out (task 3)");
  if (kept > 0) return wb_finish(0, "add_f32_from_host does not free its device memory (task 3)");
  if (kept_after_error > 0)
    return wb_finish(0, "add_f32_from_host does not free after an error (task 3)");
  if (wrong_openmp) return wb_finish(0, "the OpenMP loops disagree with the serial loops");
  if (wrong_int) return wb_finish(0, "original_expression_i32_on_device is wrong (task 2)");
  return wb_finish(1, NULL);
}
