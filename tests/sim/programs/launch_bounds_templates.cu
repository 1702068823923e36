// __launch_bounds__ on template kernels, each instance with its own bound: a default template
// argument, a parameter pack, shared memory sized by the template, an explicit instantiation,
// cudaLaunchKernel of an instance, a launch that leaves the template to be deduced, and two
// overloads of one name. Every answer below but the overloads' is what an H100 gave (CUDA 13.0,
// 2026-11-27). With the argument `refused`, each launch above its instance's bound is made and its
// error printed (cudaErrorInvalidValue on the H100, nothing run), and a launch within the bound
// after a refused one returns cudaSuccess: the earlier error is not this launch's.
#include <cstdio>
#include <cstring>

namespace ns {
template <typename T, int BLOCK = 128> __global__ void __launch_bounds__(BLOCK) scale(T *x) {
  x[threadIdx.x] *= 2;
}
} // namespace ns
template __global__ void ns::scale<double, 64>(double *);

template <class... Ts> __global__ void __launch_bounds__(64) count_args(int *x, Ts... values) {
  x[threadIdx.x] = (int)sizeof...(values);
}

// Bound by the type: 128 threads for float, 256 for double. A launch that lets the compiler deduce
// T (by_size<<<1, 129>>>(f)) is checked against by_size<float>'s bound, not the loosest.
template <typename T> __global__ void __launch_bounds__(sizeof(T) * 32) by_size(T *x) {
  x[threadIdx.x] += 1;
}

// Two overloads of one template name, each with its own bound: an instance is picked by the
// launch's arguments (not yet run on a GPU: semantics.list has the next GPU run check it).
template <typename T> __global__ void __launch_bounds__(64) fill(T *x) {
  x[threadIdx.x] = T(1);
}
template <typename T> __global__ void __launch_bounds__(32) fill(T *x, T value) {
  x[threadIdx.x] = value;
}

template <int N, typename T> __global__ void __launch_bounds__(N, 2) reverse(T *x) {
  __shared__ T tile[N];
  tile[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = tile[N - 1 - threadIdx.x];
}

static int failures = 0;
static void expect(bool ok, const char *what) {
  if (!ok) {
    printf("FAIL launch_bounds_templates: %s\n", what);
    ++failures;
  }
}
static int bound(const void *kernel) {
  cudaFuncAttributes a;
  return cudaFuncGetAttributes(&a, kernel) == cudaSuccess ? a.maxThreadsPerBlock : -1;
}

int main(int argc, char **argv) {
  float *f, host[128];
  double *d;
  int *counts, count_host[64];
  cudaMalloc((void **)&f, sizeof host);
  cudaMalloc((void **)&counts, sizeof count_host);
  cudaMalloc((void **)&d, 256 * sizeof(double));
  cudaMemset(d, 0, 256 * sizeof(double));
  for (int i = 0; i < 128; ++i) host[i] = (float)i;
  cudaMemcpy(f, host, sizeof host, cudaMemcpyHostToDevice);

  expect(bound((const void *)ns::scale<float>) == 128, "scale<float>'s bound is not 128");
  expect(bound((const void *)ns::scale<double, 64>) == 64, "scale<double, 64>'s bound is not 64");
  expect(bound((const void *)count_args<int, float>) == 64,
         "count_args<int, float>'s bound is not 64");
  expect(bound((const void *)reverse<32, float>) == 32, "reverse<32, float>'s bound is not 32");
  expect(bound((const void *)by_size<float>) == 128, "by_size<float>'s bound is not 128");
  expect(bound((const void *)by_size<double>) == 256, "by_size<double>'s bound is not 256");

  if (argc > 1 && strcmp(argv[1], "refused") == 0) {
    ns::scale<float><<<1, 129>>>(f);
    printf("scale<float> in 129 threads: %s\n", cudaGetErrorName(cudaGetLastError()));
    count_args<int, float><<<1, 65>>>(counts, 1, 2.0f);
    printf("count_args<int, float> in 65 threads: %s\n", cudaGetErrorName(cudaGetLastError()));
    reverse<32, float><<<1, 64>>>(f);
    printf("reverse<32, float> in 64 threads: %s\n", cudaGetErrorName(cudaGetLastError()));
    by_size<<<1, 129>>>(f); // T deduced: float, bound 128
    printf("by_size, deduced for float, in 129 threads: %s\n",
           cudaGetErrorName(cudaGetLastError()));
    fill<float><<<1, 33>>>(f, 2.0f); // the overload of two parameters: bound 32
    printf("fill<float>(x, value) in 33 threads: %s\n", cudaGetErrorName(cudaGetLastError()));
    fill<<<1, 65>>>(f); // deduced, the overload of one parameter: bound 64
    printf("fill(x), deduced, in 65 threads: %s\n", cudaGetErrorName(cudaGetLastError()));
    void *args[] = {&f};
    cudaError_t over = cudaLaunchKernel((const void *)ns::scale<float>, 1, 129, args, 0, 0);
    cudaError_t within = cudaLaunchKernel((const void *)ns::scale<float>, 1, 128, args, 0, 0);
    printf("cudaLaunchKernel of scale<float>: 129 threads %s, then 128 threads %s\n",
           cudaGetErrorName(over), cudaGetErrorName(within));
    cudaFree(f);
    cudaFree(counts);
    cudaFree(d);
    return 0;
  }

  ns::scale<float><<<1, 128>>>(f); // x 2
  void *args[] = {&f};
  expect(cudaLaunchKernel((const void *)ns::scale<float>, 1, 128, args, 0, 0) == cudaSuccess,
         "cudaLaunchKernel of scale<float> in 128 threads failed"); // x 2 again
  reverse<32, float><<<1, 32>>>(f);                                 // the first 32 reversed
  by_size<<<1, 128>>>(f);          // T deduced: float, bound 128; + 1
  by_size<double><<<1, 256>>>(d);  // double: bound 256
  fill<<<1, 64>>>(d);              // deduced: fill<double>(double *), 1 in the first 64
  fill<double><<<1, 32>>>(d, 5.0); // fill<double>(double *, double), 5 in the first 32
  count_args<int, float><<<1, 64>>>(counts, 1, 2.0f);
  expect(cudaGetLastError() == cudaSuccess, "a launch within its bound failed");
  expect(cudaDeviceSynchronize() == cudaSuccess, "cudaDeviceSynchronize failed");
  cudaMemcpy(host, f, sizeof host, cudaMemcpyDeviceToHost);
  cudaMemcpy(count_host, counts, sizeof count_host, cudaMemcpyDeviceToHost);
  double d_host[256];
  cudaMemcpy(d_host, d, sizeof d_host, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 256; ++i)
    if (d_host[i] != (i < 32 ? 5.0 : 1.0)) {
      printf("FAIL launch_bounds_templates: d[%d] is %g, not %g\n", i, d_host[i],
             i < 32 ? 5.0 : 1.0);
      ++failures;
      break;
    }
  for (int i = 0; i < 128; ++i) {
    float want = 4.0f * (float)(i < 32 ? 31 - i : i) + 1.0f;
    if (host[i] != want) {
      printf("FAIL launch_bounds_templates: x[%d] is %g, not %g\n", i, host[i], want);
      ++failures;
      break;
    }
  }
  for (int i = 0; i < 64; ++i)
    if (count_host[i] != 2) {
      printf("FAIL launch_bounds_templates: count[%d] is %d, not 2\n", i, count_host[i]);
      ++failures;
      break;
    }
  cudaFree(f);
  cudaFree(counts);
  cudaFree(d);
  if (failures) return 1;
  printf("PASS launch_bounds_templates\n");
  return 0;
}
