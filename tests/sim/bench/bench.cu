// Simulator benchmark: (a) a barrier-free element-wise kernel over 10M floats against the same
// loop in plain C; (b) a shared-memory block reduction (256 threads, __syncthreads in a loop):
// thread-barrier crossings per second per worker thread. Usage: sim_bench [--n N] [--repeat R]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <vector>

extern "C" void plain_saxpy(float a, const float *x, float *y, int n);

__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void block_reduce(const float *in, float *out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

#include <ctime>
static double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

template <class F> static double median_time(int repeat, F f) {
  std::vector<double> t;
  for (int r = 0; r < repeat; ++r) {
    double t0 = seconds();
    f();
    t.push_back(seconds() - t0);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main(int argc, char **argv) {
  int n = 10 * 1000 * 1000, repeat = 7;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--n")) n = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--repeat")) repeat = std::atoi(argv[i + 1]);
  }
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  float *x, *y;
  cudaMallocManaged(&x, (size_t)n * sizeof(float));
  cudaMallocManaged(&y, (size_t)n * sizeof(float));
  for (int i = 0; i < n; ++i) x[i] = 1.0f, y[i] = 2.0f;
  std::vector<float> hx(x, x + n), hy(y, y + n);

  plain_saxpy(2.0f, hx.data(), hy.data(), n); // warm-up
  saxpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
  cudaDeviceSynchronize();
  double t_c = median_time(repeat, [&] { plain_saxpy(2.0f, hx.data(), hy.data(), n); });
  double cpu_sim0 = cpu_seconds();
  double t_sim = median_time(repeat, [&] {
    saxpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
    cudaDeviceSynchronize();
  });
  double cpu_sim = (cpu_seconds() - cpu_sim0) / repeat;
  std::printf("(a) element-wise y = a*x + y over %d floats, median of %d\n", n, repeat);
  std::printf("    plain C loop (1 thread):       %8.2f ms\n", t_c * 1e3);
  std::printf("    simulator (%2d worker threads): %8.2f ms  = %.2fx the C loop\n", sms,
              t_sim * 1e3, t_sim / t_c);
  // CPU time counts what the workers did, whatever else the machine runs: the figure to compare
  // between modes (CUSIM_MEMCHECK=0, CUSIM_PROFILE=1) on a busy machine.
  std::printf("    CPU time per run: %.2f ms (all worker threads)\n", cpu_sim * 1e3);

  int blocks = n / 256;
  float *out;
  cudaMallocManaged(&out, (size_t)blocks * sizeof(float));
  block_reduce<<<blocks, 256>>>(x, out);
  cudaDeviceSynchronize();
  double cpu0 = cpu_seconds();
  double t_red = median_time(repeat, [&] {
    block_reduce<<<blocks, 256>>>(x, out);
    cudaDeviceSynchronize();
  });
  double cpu_per_run = (cpu_seconds() - cpu0) / repeat;
  bool ok = true;
  for (int b = 0; b < blocks && ok; ++b) ok = out[b] == 256.0f;
  // 9 barriers per thread (1 + log2(256)).
  double crossings = (double)blocks * 256 * 9;
  std::printf("(b) block reduction, 256 threads, 9 __syncthreads each, %d blocks, median of %d: "
              "%.2f ms (%s)\n",
              blocks, repeat, t_red * 1e3, ok ? "correct" : "WRONG");
  std::printf("    %.1f million thread-barrier crossings per second in all, %.1f million per "
              "worker thread\n",
              crossings / t_red / 1e6, crossings / t_red / 1e6 / sms);
  std::printf("    %.1f million per second of CPU time (process CPU time: the figure per core, "
              "whatever else runs)\n",
              crossings / cpu_per_run / 1e6);
  std::printf("    CPU time per run: %.2f ms (all worker threads)\n", cpu_per_run * 1e3);
  cudaFree(x);
  cudaFree(y);
  cudaFree(out);
  return ok ? 0 : 1;
}
