/* Lesson 17 driver: checks the naive multiply, your tiled one and your cublasSgemm call against
 * the CPU on an n x n square and a non-square product, your cuRAND sample and the hand-written
 * generator's, and prints their speeds against the device's peak. You do not need to edit this
 * file. */
#include "lesson.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const wb_program program = {
    .program = "17-libraries-first",
    .summary = "SGEMM three ways and a normal sample two ways",
    .default_n = 4096,    /* 4096 x 4096 matrices, the size for cuBLAS on an H100 */
    .sim_default_n = 256, /* one naive multiply of 4096 takes hours on the simulator */
    .min_n = 1,
    .max_n = 16384,
    .n_meaning = "matrix side",
    .default_repeat = 5,
};

/* Above this many multiply-adds the CPU checks a sample of rows of C, not all of them. */
#define FULL_CHECK_LIMIT 2e8
enum { SAMPLED_ROWS = 16 };

typedef struct {
  const float *d_a, *d_b;
  float *d_c, *d_normals;
  int m, n, k;
  size_t count;
  uint64_t seed;
  cudaStream_t stream;
  cublasHandle_t handle;
  curandGenerator_t generator;
  cublasStatus_t blas_status;
  curandStatus_t rand_status;
} context;

static void run_naive(void *c_) {
  context *c = c_;
  CUDA_CHECK(matmul_naive(c->d_a, c->d_b, c->d_c, c->m, c->n, c->k, c->stream));
}

static void run_tiled(void *c_) {
  context *c = c_;
  CUDA_CHECK(matmul_tiled(c->d_a, c->d_b, c->d_c, c->m, c->n, c->k, c->stream));
}

static void run_cublas(void *c_) {
  context *c = c_;
  c->blas_status = matmul_cublas(c->handle, c->d_a, c->d_b, c->d_c, c->m, c->n, c->k);
}

static void run_curand(void *c_) {
  context *c = c_;
  c->rand_status = normal_sample(c->generator, c->d_normals, c->count);
}

static void run_normal_kernel(void *c_) {
  context *c = c_;
  CUDA_CHECK(normal_kernel(c->d_normals, c->count, c->seed, c->stream));
}

/* Elements of a row-major rows x cols matrix that differ from want beyond the tolerance. */
static size_t count_wrong(const float *got, const float *want, size_t count, double atol,
                          double rtol) {
  size_t wrong = 0;
  for (size_t i = 0; i < count; ++i) {
    double d = fabs((double)got[i] - want[i]);
    if (!(d <= atol + rtol * fabs(want[i]))) ++wrong;
  }
  return wrong;
}

/* What a column-major mistake produces, for a square product checked in full: B A (the operands
 * swapped: row-major arrays passed as if they were column-major), (A B)^T (C read back in
 * column-major order), or NaN (the driver fills C with NaN first: beta = 1 adds it). Returns a
 * sentence, or NULL when the wrong C is none of these (the caller then names only the task). */
static const char *diagnose(const float *got, const float *a, const float *b, int n, double atol,
                            double rtol) {
  size_t count = (size_t)n * n, nans = 0;
  for (size_t i = 0; i < count; ++i) nans += isnan(got[i]) != 0;
  if (nans == count) return "task 3: C is all NaN, its old contents: beta must be 0 (&zero)";
  float *other = malloc(count * sizeof(float)), *product = malloc(count * sizeof(float));
  const char *why = NULL;
  if (other && product) {
    matmul_reference(b, a, other, n, n, n, 0, n);
    matmul_reference(a, b, product, n, n, n, 0, n);
    if (!count_wrong(got, other, count, atol, rtol)) {
      why = "task 3: cuBLAS computed B x A: it reads matrices in column-major order";
    } else {
      for (int r = 0; r < n; ++r) /* product becomes (A B)^T */
        for (int c = r + 1; c < n; ++c) {
          float t = product[(size_t)r * n + c];
          product[(size_t)r * n + c] = product[(size_t)c * n + r];
          product[(size_t)c * n + r] = t;
        }
      if (!count_wrong(got, product, count, atol, rtol))
        why = "task 3: C came back transposed: cuBLAS writes C in column-major order";
    }
  }
  free(other);
  free(product);
  return why;
}

/* Fill C with NaN, multiply on the stream, copy back, compare with the CPU: every row when the
 * product is small, otherwise SAMPLED_ROWS rows. Returns the number of wrong elements (all of C
 * when the call failed); *why gets a column-major diagnosis where there is one. */
static long long check_matmul(const char *what, context *c, void (*run)(void *), float *got,
                              float *want, const float *a, const float *b, const char **why) {
  size_t elements = (size_t)c->m * c->n;
  CUDA_CHECK(cudaMemsetAsync(c->d_c, 0xFF, elements * sizeof(float), c->stream));
  c->blas_status = CUBLAS_STATUS_SUCCESS;
  run(c);
  if (c->blas_status != CUBLAS_STATUS_SUCCESS) {
    printf("  %s: cuBLAS returned %s\n", what, cublasGetStatusName(c->blas_status));
    return (long long)elements;
  }
  CUDA_CHECK(
      cudaMemcpyAsync(got, c->d_c, elements * sizeof(float), cudaMemcpyDeviceToHost, c->stream));
  CUDA_CHECK(cudaStreamSynchronize(c->stream));
  /* float sums of k products of numbers in [-1, 1): each step rounds by up to 6e-8 of the sum,
   * and cuBLAS adds in another order than the CPU (in blocks, split along k): the two differ by
   * about sqrt(k) * 6e-8 * |sum|, far inside this tolerance; a wrong product is off by far
   * more. */
  double atol = 1e-6 * c->k, rtol = 1e-5;
  if ((double)c->m * c->n * c->k <= FULL_CHECK_LIMIT) {
    matmul_reference(a, b, want, c->m, c->n, c->k, 0, c->m);
    size_t wrong = count_wrong(got, want, elements, atol, rtol);
    if (wrong) {
      if (why && c->m == c->n && c->n == c->k) *why = diagnose(got, a, b, c->n, atol, rtol);
      wb_compare_f32(what, got, want, elements, atol, rtol);
    }
    return (long long)wrong;
  }
  for (int s = 0; s < SAMPLED_ROWS; ++s) {
    int row = (int)((long long)s * (c->m - 1) / (SAMPLED_ROWS - 1));
    size_t at = (size_t)row * c->n;
    matmul_reference(a, b, want, c->m, c->n, c->k, row, 1);
    char label[64];
    snprintf(label, sizeof label, "%s, row %d", what, row);
    long long wrong =
        (long long)wb_compare_f32(label, got + at, want + at, (size_t)c->n, atol, rtol);
    if (wrong) return wrong;
  }
  return 0;
}

/* Mean, standard deviation and the share within one standard deviation of a normal sample;
 * returns 1 when all three are as N(0, 1) gives them (6 standard errors of slack each). */
static int normal_ok(const float *x, size_t count, double *mean, double *sd, double *inside) {
  double sum = 0, squares = 0;
  size_t within = 0, bad = 0;
  for (size_t i = 0; i < count; ++i) {
    if (!isfinite(x[i])) ++bad;
    sum += x[i];
    squares += (double)x[i] * x[i];
    within += fabsf(x[i]) <= 1.0f;
  }
  *mean = sum / count;
  *sd = sqrt(squares / count - *mean * *mean);
  *inside = (double)within / count;
  double p = 0.682689492; /* P(|X| <= 1) for X ~ N(0, 1) */
  return bad == 0 && fabs(*mean) <= 6.0 / sqrt((double)count) &&
         fabs(*sd * *sd - 1.0) <= 6.0 * sqrt(2.0 / count) &&
         fabs(*inside - p) <= 6.0 * sqrt(p * (1 - p) / count);
}

/* The seed given must decide the numbers: SEED_NUMBERS numbers from each of three fresh
 * generators of library_generator, seeded with the seed, the seed again and the seed + 1, must
 * be equal for the first two and differ for the third. Returns a failure, or NULL. `scratch`
 * holds 2 x SEED_NUMBERS floats. */
enum { SEED_NUMBERS = 1024 };
static const char *check_seed(const context *c, float *scratch) {
  for (int pass = 0; pass < 3; ++pass) {
    curandGenerator_t generator = NULL;
    unsigned long long seed = c->seed + (pass == 2);
    if (library_generator(&generator, seed, c->stream) != CURAND_STATUS_SUCCESS)
      return "task 4: a second generator could not be made";
    curandStatus_t status = normal_sample(generator, c->d_normals, SEED_NUMBERS);
    float *got = scratch + (pass == 0 ? 0 : SEED_NUMBERS);
    CUDA_CHECK(cudaMemcpyAsync(got, c->d_normals, SEED_NUMBERS * sizeof(float),
                               cudaMemcpyDeviceToHost, c->stream));
    CUDA_CHECK(cudaStreamSynchronize(c->stream));
    curandDestroyGenerator(generator);
    if (status != CURAND_STATUS_SUCCESS) return "task 4: normal_sample failed on a new generator";
    int same = pass > 0 && memcmp(scratch, got, SEED_NUMBERS * sizeof(float)) == 0;
    if (pass == 1 && !same) return "task 4: one seed gave two samples: seed with the seed given";
    if (pass == 2 && same) return "task 4: two seeds gave one sample: seed with the seed given";
  }
  return NULL;
}

/* FP32 peak in GFLOP/s: multiprocessors x FP32 lanes each x 2 (a fused multiply-add) x clock.
 * 0 where it is not known (the simulator, an architecture not in the table). */
static double peak_gflops(const wb_device *device) {
  if (device->is_simulator) return 0.0;
  int khz = 0, lanes = 0;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0) != cudaSuccess) return 0.0;
  if (device->major == 7 || (device->major == 8 && device->minor == 0))
    lanes = 64;
  else if (device->major >= 8)
    lanes = 128; /* 8.6, 8.9, 9.0, 10.x, 12.x */
  return device->multiprocessors * lanes * 2.0 * khz * 1e3 / 1e9;
}

static void print_gemm_figure(const wb_args *args, const char *label, double ms, const context *c,
                              double peak) {
  double gflops = ms > 0 ? 2.0 * c->m * c->n * c->k / (ms * 1e-3) / 1e9 : 0.0;
  if (peak > 0)
    wb_info(args, "  %-24s %10.3f ms %10.1f GFLOP/s %5.1f%% of peak\n", label, ms, gflops,
            100.0 * gflops / peak);
  else
    wb_info(args, "  %-24s %10.3f ms %10.1f GFLOP/s\n", label, ms, gflops);
}

int main(int argc, char **argv) {
  wb_args args;
  wb_parse_args(argc, argv, &program, &args);
  args.n = wb_seeded_n(&program, &args); /* --seed S: a size of its own (a grade uses one) */
  int side = (int)args.n;
  /* The non-square product: (side/2 + 1) x (side + 5) times (side + 5) x (side/3 + 2). */
  int m2 = side / 2 + 1, k2 = side + 5, n2 = side / 3 + 2;
  size_t matrix = (size_t)side * side * sizeof(float);
  size_t shapes[3] = {(size_t)m2 * k2, (size_t)k2 * n2, (size_t)m2 * n2};
  for (int s = 0; s < 3; ++s)
    if (shapes[s] * sizeof(float) > matrix) matrix = shapes[s] * sizeof(float);
  /* The normal sample: two numbers per element of an n x n matrix, at least 65,536, even. Under
   * ThreadSanitizer at least 4,096: each thread of the hand-written generator is a TSan fiber,
   * and its 32,768 threads at every size took most of CI's race check of this lesson (the
   * statistical checks scale with the count; the plain check draws 65,536). */
  size_t count = 2 * (size_t)side * side, least = WB_TSAN ? 4096 : 65536;
  if (count < least) count = least;
  size_t sample = count * sizeof(float);
  wb_require_host_memory(&program, 4.0 * (double)matrix + (double)sample);

  wb_device device;
  wb_device_open(&device);
  wb_require_device_memory(&program, &device, 3.0 * (double)matrix + (double)sample);
  wb_print_header(&program, &device, &args);

  float *a = malloc(matrix), *b = malloc(matrix), *got = malloc(matrix), *want = malloc(matrix);
  float *normals = malloc(sample);
  if (!a || !b || !got || !want || !normals)
    wb_usage_error(&program, "cannot allocate %zu bytes of host memory", 4 * matrix + sample);
  wb_fill_f32(a, matrix / sizeof(float), args.seed + 1, -1.0f, 1.0f);
  wb_fill_f32(b, matrix / sizeof(float), args.seed + 2, -1.0f, 1.0f);

  context c = {0};
  c.count = count, c.seed = args.seed;
  /* A stream of its own, as a program that overlaps work would have. It is a blocking stream,
   * so the timing events on the default stream see its work. */
  CUDA_CHECK(cudaStreamCreate(&c.stream));
  CUDA_CHECK(cudaMalloc((void **)&c.d_a, matrix));
  CUDA_CHECK(cudaMalloc((void **)&c.d_b, matrix));
  CUDA_CHECK(cudaMalloc((void **)&c.d_c, matrix));
  CUDA_CHECK(cudaMalloc((void **)&c.d_normals, sample));
  CUDA_CHECK(cudaMemcpy((void *)c.d_a, a, matrix, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy((void *)c.d_b, b, matrix, cudaMemcpyHostToDevice));
  const char *failure = NULL, *why = NULL;

  /* Check 1: the two kernels, square then non-square. */
  c.m = side, c.n = side, c.k = side;
  long long naive_wrong = check_matmul("C (naive)", &c, run_naive, got, want, a, b, NULL);
  long long tiled_wrong = check_matmul("C (tiled)", &c, run_tiled, got, want, a, b, NULL);
  context shape = c;
  shape.m = m2, shape.n = n2, shape.k = k2;
  if (!tiled_wrong)
    tiled_wrong = check_matmul("C (tiled)", &shape, run_tiled, got, want, a, b, NULL);
  wb_info(&args, "check 1: %d x %d squared, and %d x %d times %d x %d: naive %s, tiled %s\n", side,
          side, m2, k2, k2, n2, naive_wrong ? "no" : "yes", tiled_wrong ? "no" : "yes");
  if (naive_wrong)
    failure = "the naive multiply is wrong (it is given: was it edited?)";
  else if (tiled_wrong)
    failure = "task 1: the tiled multiply is wrong (lesson 11's task 3)";

  /* Check 2: the handle, and the stream its work goes to. */
  cublasStatus_t handle_status = library_handle(&c.handle, c.stream);
  cudaStream_t handle_stream = NULL;
  int handle_ok = handle_status == CUBLAS_STATUS_SUCCESS &&
                  cublasGetStream(c.handle, &handle_stream) == CUBLAS_STATUS_SUCCESS &&
                  handle_stream == c.stream;
  wb_info(&args, "check 2: a cuBLAS handle on the program's stream: %s\n",
          handle_ok ? "yes" : "no");
  if (!handle_ok) {
    if (handle_status != CUBLAS_STATUS_SUCCESS)
      wb_info(&args, "  library_handle returned %s\n", cublasGetStatusName(handle_status));
    if (!failure)
      failure = handle_status != CUBLAS_STATUS_SUCCESS
                    ? "task 2: cublasCreate, then cublasSetStream"
                    : "task 2: the handle's stream must be the one given (cublasSetStream)";
  }

  /* Check 3: cublasSgemm, square then non-square. */
  long long blas_wrong = 1;
  if (handle_ok) {
    shape.handle = c.handle;
    cublasStatus_t refused = CUBLAS_STATUS_SUCCESS;
    int square_right = 0;
    blas_wrong = check_matmul("C (cuBLAS)", &c, run_cublas, got, want, a, b, &why);
    refused = c.blas_status;
    if (!blas_wrong) {
      square_right = 1;
      blas_wrong = check_matmul("C (cuBLAS)", &shape, run_cublas, got, want, a, b, NULL);
      refused = shape.blas_status;
    }
    wb_info(&args, "check 3: cublasSgemm, the same two products: %s\n", blas_wrong ? "no" : "yes");
    if (why) wb_info(&args, "  %s\n", why + strlen("task 3: "));
    /* Only what is known: a recognised mistake, a refused call, or a wrong C of no known form. */
    if (blas_wrong && !failure)
      failure = why ? why
                : refused == CUBLAS_STATUS_INVALID_VALUE
                    ? "task 3: cuBLAS refused the sizes: is each leading dimension a row length?"
                : refused != CUBLAS_STATUS_SUCCESS ? "task 3: cublasSgemm failed (its status above)"
                : square_right ? "task 3: right when square, wrong when not: which size goes where?"
                               : "task 3: C = A B is wrong: check each argument of cublasSgemm";
  }

  /* Check 4: the generator, made once (seeded, on the stream), and normal numbers from it; then
   * the same from the hand-written kernel. */
  double mean, sd, inside;
  curandStatus_t generator_status = library_generator(&c.generator, c.seed, c.stream);
  int curand_ok = 0;
  if (generator_status != CURAND_STATUS_SUCCESS) {
    wb_info(&args, "check 4: library_generator returned cuRAND status %d\n", (int)generator_status);
    if (!failure) failure = "task 4: curandCreateGenerator, then its seed and its stream";
  } else {
    CUDA_CHECK(cudaMemsetAsync(c.d_normals, 0xFF, sample, c.stream));
    run_curand(&c);
    CUDA_CHECK(cudaMemcpyAsync(normals, c.d_normals, sample, cudaMemcpyDeviceToHost, c.stream));
    CUDA_CHECK(cudaStreamSynchronize(c.stream));
    curand_ok =
        c.rand_status == CURAND_STATUS_SUCCESS && normal_ok(normals, count, &mean, &sd, &inside);
    if (c.rand_status != CURAND_STATUS_SUCCESS)
      wb_info(&args, "check 4: normal_sample returned cuRAND status %d\n", (int)c.rand_status);
    else
      wb_info(&args, "check 4: %zu normals from cuRAND: mean %.4f, sd %.4f, %.1f%% in 1 sd: %s\n",
              count, mean, sd, 100 * inside, curand_ok ? "yes" : "no");
    if (!curand_ok && !failure)
      failure = "task 4: curandGenerateNormal, mean 0, standard deviation 1, on the stream";
    if (curand_ok) {
      const char *seed_failure = check_seed(&c, normals);
      wb_info(&args, "  the same seed gives the same numbers, another seed others: %s\n",
              seed_failure ? "no" : "yes");
      if (seed_failure && !failure) failure = seed_failure;
    }
#ifdef CUSIM
    /* cuRAND has no call that tells a generator's stream: the simulator answers (curand.h). */
    cudaStream_t generator_stream = NULL;
    int on_stream =
        cusim_curand_generator_stream(c.generator, &generator_stream) == CURAND_STATUS_SUCCESS &&
        generator_stream == c.stream;
    wb_info(&args, "  the generator works on the program's stream: %s\n", on_stream ? "yes" : "no");
    if (!on_stream && !failure)
      failure = "task 4: the generator's stream must be the one given (curandSetStream)";
#endif
  }
  run_normal_kernel(&c);
  CUDA_CHECK(cudaMemcpyAsync(normals, c.d_normals, sample, cudaMemcpyDeviceToHost, c.stream));
  CUDA_CHECK(cudaStreamSynchronize(c.stream));
  int kernel_ok = normal_ok(normals, count, &mean, &sd, &inside);
  wb_info(&args, "  the same from the hand-written kernel: mean %.4f, sd %.4f: %s\n", mean, sd,
          kernel_ok ? "yes" : "no");
  if (!kernel_ok && !failure) failure = "the hand-written generator is wrong (was it edited?)";

  /* Figures: only for right answers. */
  if (!failure) {
    double peak = peak_gflops(&device);
    double naive_ms = wb_time_cuda_ms(run_naive, &c, 1, args.repeat);
    double tiled_ms = wb_time_cuda_ms(run_tiled, &c, 1, args.repeat);
    double blas_ms = wb_time_cuda_ms(run_cublas, &c, 1, args.repeat);
    double curand_ms = wb_time_cuda_ms(run_curand, &c, 1, args.repeat);
    double kernel_ms = wb_time_cuda_ms(run_normal_kernel, &c, 1, args.repeat);
    wb_info(&args, "figures (%d x %d matrices, %zu normal numbers):\n", side, side, count);
    print_gemm_figure(&args, "naive multiply", naive_ms, &c, peak);
    print_gemm_figure(&args, "tiled multiply", tiled_ms, &c, peak);
    print_gemm_figure(&args, "cublasSgemm", blas_ms, &c, peak);
    if (tiled_ms > 0 && blas_ms > 0)
      wb_info(&args, "  the tiled multiply reaches %.1f%% of cuBLAS's speed\n",
              100.0 * blas_ms / tiled_ms);
    if (peak > 0)
      wb_info(&args, "  (FP32 peak %.1f TFLOP/s: %d multiprocessors at the top clock)\n",
              peak / 1e3, device.multiprocessors);
    wb_print_figure(&args, "normals, cuRAND", curand_ms, (double)sample, &device, 0);
    wb_print_figure(&args, "normals, hand-written", kernel_ms, (double)sample, &device, 0);
    if (device.is_simulator)
      wb_info(&args, "  (on the simulator cuBLAS is OpenBLAS on the host CPU: these times say\n"
                     "  nothing about a GPU)\n");
  }

  if (handle_status == CUBLAS_STATUS_SUCCESS) cublasDestroy(c.handle);
  if (generator_status == CURAND_STATUS_SUCCESS) curandDestroyGenerator(c.generator);
  CUDA_CHECK(cudaFree((void *)c.d_a));
  CUDA_CHECK(cudaFree((void *)c.d_b));
  CUDA_CHECK(cudaFree(c.d_c));
  CUDA_CHECK(cudaFree(c.d_normals));
  CUDA_CHECK(cudaStreamDestroy(c.stream));
  free(a);
  free(b);
  free(got);
  free(want);
  free(normals);
  return wb_finish(failure == NULL, failure);
}
