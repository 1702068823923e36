// __launch_bounds__ with expressions in it, before or after __global__, in templates: a '<', '>',
// '>>', '?' or ':' there is part of an expression, and so it is in alignas, __attribute__ and
// [[...]]. nvcc builds every kernel here; each runs, and every bound is honoured, each template's
// instance with its own (cudaFuncGetAttributes; a launch above it is refused). An H100 refused
// add_n<4> in blocks of 256 threads: its bound is 4. With the argument `over-template-bound`,
// add_n<4> is launched with 5 threads: cudaErrorInvalidValue, as on the H100.
#include <cstdio>
#include <cstring>

#define LIMIT 512

__launch_bounds__(256, 4 < 8 ? 2 : 1) __global__ void add_one(int *x) {
  x[blockIdx.x * blockDim.x + threadIdx.x] += 1;
}

__global__ void __launch_bounds__(LIMIT > 256 ? 128 : 64, 1) add_two(int *x) {
  x[blockIdx.x * blockDim.x + threadIdx.x] += 2;
}

// Attributes in device code: their shifts and comparisons are constants, not the kernel's own.
__global__ void __launch_bounds__((1024 >> 2), (4 >> 1)) add_three(int *x) {
  alignas((64 >> 2) > 8 ? 16 : 8) int three[2] = {3, 0};
  __attribute__((aligned(1 << 4))) int zero[2] = {0, 0};
  alignas((int)16.0) int four[1] = {4};
  [[maybe_unused]] int unused = three[1] < zero[1] ? 1 : 0;
  x[blockIdx.x * blockDim.x + threadIdx.x] += three[0] + zero[1] + four[0] - 4;
}

template <int N> __global__ void __launch_bounds__(N < LIMIT ? N : LIMIT) add_n(int *x) {
  x[blockIdx.x * blockDim.x + threadIdx.x] += N;
}

template <int N> __launch_bounds__(N > LIMIT ? LIMIT : N) __global__ void sub_n(int *x) {
  x[blockIdx.x * blockDim.x + threadIdx.x] -= N;
}

static int failures = 0;
static void expect(int ok, const char *what) {
  if (!ok) {
    printf("FAIL launch_bounds_expressions: %s\n", what);
    failures++;
  }
}

static int max_threads(cudaFuncAttributes a) {
  return a.maxThreadsPerBlock;
}

int main(int argc, char **argv) {
  const int n = 1024;
  int host[n];
  for (int i = 0; i < n; i++) host[i] = i;
  int *d = NULL;
  cudaMalloc((void **)&d, sizeof host);
  cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice);

  cudaFuncAttributes a, b, c;
  expect(cudaFuncGetAttributes(&a, add_one) == cudaSuccess && max_threads(a) == 256,
         "add_one's maxThreadsPerBlock is not 256");
  expect(cudaFuncGetAttributes(&b, add_two) == cudaSuccess && max_threads(b) == 128,
         "add_two's maxThreadsPerBlock is not 128");
  expect(cudaFuncGetAttributes(&c, add_three) == cudaSuccess && max_threads(c) == 256,
         "add_three's maxThreadsPerBlock is not 256");

  add_one<<<n / 256, 256>>>(d);
  add_two<<<n / 128, 128>>>(d);
  add_three<<<n / 256, 256>>>(d);
  cudaFuncAttributes t4, t10, t1000;
  expect(cudaFuncGetAttributes(&t4, add_n<4>) == cudaSuccess && max_threads(t4) == 4,
         "add_n<4>'s maxThreadsPerBlock is not 4");
  expect(cudaFuncGetAttributes(&t10, sub_n<10>) == cudaSuccess && max_threads(t10) == 10,
         "sub_n<10>'s maxThreadsPerBlock is not 10");
  expect(cudaFuncGetAttributes(&t1000, add_n<1000>) == cudaSuccess && max_threads(t1000) == 512,
         "add_n<1000>'s maxThreadsPerBlock is not 512");
  if (argc > 1 && strcmp(argv[1], "over-template-bound") == 0) {
    add_n<4><<<1, 5>>>(d);
    printf("add_n<4> in 5 threads: %s\n", cudaGetErrorName(cudaGetLastError()));
    return 0;
  }
  add_n<4><<<n / 4, 4>>>(d);
  sub_n<10><<<n / 8, 8>>>(d);
  expect(cudaGetLastError() == cudaSuccess, "a launch within its bounds failed");
  expect(cudaDeviceSynchronize() == cudaSuccess, "cudaDeviceSynchronize failed");
  cudaMemcpy(host, d, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(d);
  for (int i = 0; i < n; i++) {
    if (host[i] != i) { // +1 +2 +3 +4 -10
      printf("FAIL launch_bounds_expressions: x[%d] is %d, not %d\n", i, host[i], i);
      return 1;
    }
  }
  if (failures) return 1;
  printf("PASS launch_bounds_expressions\n");
  return 0;
}
