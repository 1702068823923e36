// A streamcluster-like loop (written here, not Rodinia's code): many short launches, each with a
// __shared__ staging step and a __syncthreads(), with host-device copies and memsets every
// iteration, as a clustering program's "gain" step runs them. Each iteration: copy the points'
// assignment in, clear a flag array and a work array (cudaMemset), launch, copy both back, and
// fold the work array on the host. With --malloc the work array is cudaMalloc'd and cudaFree'd
// every iteration (as the original program does). The same computation runs as a plain C loop
// first, and the two answers must agree (exit 1 if not).
// Usage: sim_bench_streamcluster [--n N] [--dim D] [--iters I] [--stride S] [--malloc]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <cuda_runtime.h>
#include <vector>

enum { kThreads = 256, kMaxDim = 256 };

__global__ void gain(const float *coord, int n, int dim, int x, const int *assign,
                     const float *cost, float *work, int stride, unsigned char *flip) {
  __shared__ float cx[kMaxDim];
  int t = threadIdx.x;
  for (int d = t; d < dim; d += blockDim.x) cx[d] = coord[(size_t)d * n + x];
  __syncthreads();
  int i = blockIdx.x * blockDim.x + t;
  if (i < n) {
    float s = 0.0f;
    for (int d = 0; d < dim; ++d) {
      float v = coord[(size_t)d * n + i] - cx[d];
      s += v * v;
    }
    float *lower = work + (size_t)i * stride;
    if (s < cost[i]) {
      flip[i] = 1;
      lower[stride - 1] += s - cost[i];
    } else {
      lower[assign[i]] += cost[i] - s;
    }
  }
}

static double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
static double wall_seconds() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// The same step on the host, point by point (the layout the kernel reads: dimension-major).
static void gain_c(const float *coord, int n, int dim, int x, const int *assign, const float *cost,
                   float *work, int stride, unsigned char *flip) {
  for (int i = 0; i < n; ++i) {
    float s = 0.0f;
    for (int d = 0; d < dim; ++d) {
      float v = coord[(size_t)d * n + i] - coord[(size_t)d * n + x];
      s += v * v;
    }
    float *lower = work + (size_t)i * stride;
    if (s < cost[i]) {
      flip[i] = 1;
      lower[stride - 1] += s - cost[i];
    } else {
      lower[assign[i]] += cost[i] - s;
    }
  }
}

int main(int argc, char **argv) {
  int n = 65536, dim = 4, iters = 1600, stride = 8, per_iteration_malloc = 0;
  for (int a = 1; a < argc; ++a) {
    if (!strcmp(argv[a], "--malloc"))
      per_iteration_malloc = 1;
    else if (a + 1 < argc && !strcmp(argv[a], "--n"))
      n = atoi(argv[++a]);
    else if (a + 1 < argc && !strcmp(argv[a], "--dim"))
      dim = atoi(argv[++a]);
    else if (a + 1 < argc && !strcmp(argv[a], "--iters"))
      iters = atoi(argv[++a]);
    else if (a + 1 < argc && !strcmp(argv[a], "--stride"))
      stride = atoi(argv[++a]);
  }
  if (dim < 1 || dim > kMaxDim || n < 1 || iters < 1 || stride < 2) {
    fprintf(stderr, "usage: %s [--n N] [--dim 1..%d] [--iters I] [--stride S>=2] [--malloc]\n",
            argv[0], kMaxDim);
    return 2;
  }
  std::vector<float> coord((size_t)n * dim), cost(n);
  std::vector<int> assign(n);
  unsigned seed = 12345u;
  for (auto &c : coord) c = (float)((seed = seed * 1664525u + 1013904223u) >> 8) / 16777216.0f;
  for (int i = 0; i < n; ++i) cost[i] = 0.05f * dim * (float)(i % 7 + 1) / 7.0f;
  size_t work_bytes = (size_t)n * stride * sizeof(float);
  std::vector<float> work((size_t)n * stride), work_c((size_t)n * stride);
  std::vector<unsigned char> flip(n), flip_c(n);
  double total = 0.0, total_c = 0.0;
  long flips = 0, flips_c = 0;

  // The C loop: the whole computation, with the same clears and folds.
  double c0 = cpu_seconds();
  for (int it = 0; it < iters; ++it) {
    int x = (int)(((unsigned)it * 2654435761u) % (unsigned)n);
    for (int i = 0; i < n; ++i) assign[i] = (i + it) % (stride - 1);
    memset(flip_c.data(), 0, n);
    memset(work_c.data(), 0, work_bytes);
    gain_c(coord.data(), n, dim, x, assign.data(), cost.data(), work_c.data(), stride,
           flip_c.data());
    for (int i = 0; i < n; ++i) flips_c += flip_c[i];
    for (int k = 0; k < stride; ++k) total_c += work_c[(size_t)(it % n) * stride + k];
  }
  double c_cpu = cpu_seconds() - c0;

  float *d_coord, *d_cost, *d_work = nullptr;
  int *d_assign;
  unsigned char *d_flip;
  cudaMalloc(&d_coord, coord.size() * sizeof(float));
  cudaMalloc(&d_cost, n * sizeof(float));
  cudaMalloc(&d_assign, n * sizeof(int));
  cudaMalloc(&d_flip, n);
  if (!per_iteration_malloc) cudaMalloc(&d_work, work_bytes);
  cudaMemcpy(d_coord, coord.data(), coord.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_cost, cost.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  int blocks = (n + kThreads - 1) / kThreads;
  double s0 = cpu_seconds(), w0 = wall_seconds();
  for (int it = 0; it < iters; ++it) {
    int x = (int)(((unsigned)it * 2654435761u) % (unsigned)n);
    for (int i = 0; i < n; ++i) assign[i] = (i + it) % (stride - 1);
    if (per_iteration_malloc) cudaMalloc(&d_work, work_bytes);
    cudaMemcpy(d_assign, assign.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(d_flip, 0, n);
    cudaMemset(d_work, 0, work_bytes);
    gain<<<blocks, kThreads>>>(d_coord, n, dim, x, d_assign, d_cost, d_work, stride, d_flip);
    cudaMemcpy(work.data(), d_work, work_bytes, cudaMemcpyDeviceToHost);
    cudaMemcpy(flip.data(), d_flip, n, cudaMemcpyDeviceToHost);
    if (per_iteration_malloc) cudaFree(d_work);
    for (int i = 0; i < n; ++i) flips += flip[i];
    for (int k = 0; k < stride; ++k) total += work[(size_t)(it % n) * stride + k];
  }
  cudaError_t err = cudaDeviceSynchronize();
  double sim_cpu = cpu_seconds() - s0, sim_wall = wall_seconds() - w0;
  bool ok = err == cudaSuccess && flips == flips_c && total == total_c;
  printf("streamcluster-like: %d iterations, %d points x %d dims, %d floats of work a point%s\n",
         iters, n, dim, stride, per_iteration_malloc ? ", cudaMalloc/cudaFree each" : "");
  printf("  C loop:    %8.3f s CPU, %7.1f us an iteration\n", c_cpu, c_cpu / iters * 1e6);
  printf("  simulator: %8.3f s CPU, %7.1f us an iteration (%.3f s wall), %.1fx the C loop\n",
         sim_cpu, sim_cpu / iters * 1e6, sim_wall, sim_cpu / c_cpu);
  printf("  %s: %ld flips, sum %.6g (C loop: %ld, %.6g)%s%s\n", ok ? "correct" : "WRONG", flips,
         total, flips_c, total_c, err == cudaSuccess ? "" : " ",
         err == cudaSuccess ? "" : cudaGetErrorString(err));
  cudaFree(d_coord);
  cudaFree(d_cost);
  cudaFree(d_assign);
  cudaFree(d_flip);
  if (!per_iteration_malloc) cudaFree(d_work);
  return ok ? 0 : 1;
}
