// Crashes and stacks in kernels: a fault names the kernel, block, thread and the nearest
// allocation; a thread's stack holds what a GPU allows (512 KiB). Usage: crash_cases CASE
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void read_far(float *x, long long offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 37) x[0] = x[offset + i];
}

// A grid-stride write that runs 5,000 elements past the end of the array.
__global__ void write_past(float *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n + 5000; i += blockDim.x * gridDim.x)
    x[i] = 1.0f;
}

// 160 KB of local memory per thread, live across a barrier (every thread parks with it).
__global__ void big_local(const int *in, int *out) {
  int local[40 * 1024];
  for (int k = 0; k < 40 * 1024; ++k) local[k] = in[threadIdx.x] + k;
  __syncthreads();
  long long s = 0;
  for (int k = 0; k < 40 * 1024; k += 1024) s += local[k];
  out[threadIdx.x] = (int)s;
}

// Recursion with frames of Bytes each, every frame writing its lowest byte first.
template <int Bytes> __device__ int deep(volatile char *p, int depth) {
  volatile char frame[Bytes];
  frame[0] = (char)depth;
  frame[sizeof frame - 1] = *p;
  return depth > 0 ? deep<Bytes>(frame, depth - 1) + frame[0] : frame[sizeof frame - 1];
}

__global__ void overflow(int *out, int depth) {
  char c = 1;
  out[threadIdx.x] = deep<64 * 1024>(&c, depth);
}

// Frames larger than the guard below a stack (2 to 9 pages): without probes, one would step over
// the guard into the next mapping (another thread's stack) instead of faulting in it.
__global__ void overflow_wide(int *out, int depth) {
  char c = 1;
  out[threadIdx.x] = deep<41 * 1024 + 200>(&c, depth);
}

// Integer division by zero: on the host a SIGFPE, in a kernel too (a GPU does not trap).
static int __attribute__((noinline)) ratio(int a, int b) {
  return a / b;
}

__global__ void divide(int *out, int shift) {
  out[threadIdx.x] = 100 / ((int)threadIdx.x - shift);
}

int main(int argc, char **argv) {
  const char *c = argc > 1 ? argv[1] : "";
  if (!std::strcmp(c, "read_far")) {
    float *x;
    cudaMalloc(&x, 1000 * sizeof(float));
    read_far<<<1, 64>>>(x, 300000000LL);
    cudaError_t e = cudaDeviceSynchronize();
    std::printf("kernel returned: %s\n", cudaGetErrorName(e));
    return 0;
  }
  if (!std::strcmp(c, "write_past")) {
    const int n = 1 << 20;
    float *x;
    cudaMalloc(&x, n * sizeof(float));
    write_past<<<4, 256>>>(x, n);
    cudaError_t e = cudaDeviceSynchronize();
    std::printf("kernel returned: %s\n", cudaGetErrorName(e));
    return 0;
  }
  if (!std::strcmp(c, "big_local")) {
    const int n = 64;
    int *in, *out;
    cudaMallocManaged(&in, n * sizeof(int));
    cudaMallocManaged(&out, n * sizeof(int));
    for (int i = 0; i < n; ++i) in[i] = i;
    big_local<<<2, n>>>(in, out);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
      std::printf("big_local: %s\n", cudaGetErrorName(e));
      return 1;
    }
    for (int i = 0; i < n; ++i) {
      long long want = 0;
      for (int k = 0; k < 40 * 1024; k += 1024) want += i + k;
      if (out[i] != (int)want) {
        std::printf("big_local: out[%d] = %d, want %lld\n", i, out[i], want);
        return 1;
      }
    }
    std::printf("big_local: ok\n");
    return 0;
  }
  if (!std::strcmp(c, "overflow") || !std::strcmp(c, "overflow_wide")) {
    int *out;
    cudaMallocManaged(&out, 32 * sizeof(int));
    if (!std::strcmp(c, "overflow"))
      overflow<<<1, 32>>>(out, 64); // 64 frames of 64 KiB: 4 MiB, past any stack
    else
      overflow_wide<<<1, 32>>>(out, 128); // 128 frames of 41 KiB: 5.2 MiB, past any stack
    cudaError_t e = cudaDeviceSynchronize();
    std::printf("kernel returned: %s\n", cudaGetErrorName(e));
    return 0;
  }
  if (!std::strcmp(c, "host_divide")) {
    std::printf("ratio: %d\n", ratio(argc, (int)std::strlen(c) - 11)); // 0: "host_divide"
    return 0;
  }
  if (!std::strcmp(c, "kernel_divide")) {
    int *out;
    cudaMallocManaged(&out, 32 * sizeof(int));
    divide<<<1, 32>>>(out, 5);
    cudaError_t e = cudaDeviceSynchronize();
    std::printf("kernel returned: %s\n", cudaGetErrorName(e));
    return 0;
  }
  std::fprintf(stderr, "usage: crash_cases read_far|write_past|big_local|overflow|overflow_wide|"
                       "host_divide|"
                       "kernel_divide\n");
  return 2;
}
