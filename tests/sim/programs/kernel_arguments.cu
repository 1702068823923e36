// Kernel arguments as CUDA passes them: a by-value argument whose class has a copy constructor
// and a destructor is copied on the host and its bytes go to the device; neither runs on the
// device, let alone once per thread (Programming Guide, "__global__ Function Argument
// Processing"). Also launches through a function pointer: (*kernel)<<<...>>> and kernel<<<...>>>.
#include <cstdio>

static int host_copies = 0, host_destructions = 0;

// An RAII-style handle: the host's copies are counted; a destructor run per simulated thread
// would count thousands (and, in a real program, free the resource mid-kernel).
struct Tally {
  int *count; // device memory
  int step;
  __host__ __device__ Tally(int *c, int s) : count(c), step(s) {}
  __host__ __device__ Tally(const Tally &other) : count(other.count), step(other.step) {
#ifndef __CUDA_ARCH__
    ++host_copies;
#endif
  }
  __host__ __device__ ~Tally() {
#ifndef __CUDA_ARCH__
    ++host_destructions;
#endif
  }
};

__global__ void add_step(Tally t, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(t.count, t.step);
  t.step += i; // each thread changes its own copy only
  out[i] = t.step;
}

template <int Scale> __global__ void add_scaled(Tally t, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(t.count, Scale * t.step);
  out[i] = t.step * Scale;
}

// Arguments of every register width, signed and not (block_loop reads such an argument for each
// thread with one load the checker does not see: cusim_device.h, raw_arg): each thread must get
// the launch's values, sign and all, and change its own copies only.
enum Shade : short { shade_three = 3 };
__global__ void own_scalars(char c, short s, int v, long long l, float f, double d, int *p, Shade e,
                            bool b, unsigned char u, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c += (char)(i % 8);
  s -= (short)i;
  v = v * 3 + i;
  l += (long long)i << 33;
  f += 0.5f * (float)i;
  d -= i;
  p += i;
  e = (Shade)(e + i);
  b = !b;
  u += (unsigned char)(i % 8);
  out[i] = (int)c + s + v + (int)(l >> 33) + (int)(2.0f * f) + (int)d + (int)(p - out) + e + b + u;
}

static int check(const char *what, int *d_count, int *d_out, int n, int want_count, int want_base,
                 int per_index) {
  int count = 0;
  static int out[1024];
  if (cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost) != cudaSuccess ||
      cudaMemcpy(out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess) {
    printf("FAIL kernel_arguments: %s: %s\n", what, cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  if (count != want_count) {
    printf("FAIL kernel_arguments: %s: count %d, want %d\n", what, count, want_count);
    return 1;
  }
  for (int i = 0; i < n; i++) {
    if (out[i] != want_base + per_index * i) {
      printf("FAIL kernel_arguments: %s: out[%d] is %d, want %d\n", what, i, out[i],
             want_base + per_index * i);
      return 1;
    }
  }
  return 0;
}

int main() {
  const int blocks = 4, threads = 256, n = blocks * threads;
  int *d_count = NULL, *d_out = NULL;
  cudaMalloc((void **)&d_count, sizeof(int));
  cudaMalloc((void **)&d_out, n * sizeof(int));
  int failed = 0;
  {
    Tally t(d_count, 3);
    cudaMemset(d_count, 0, sizeof(int));
    add_step<<<blocks, threads>>>(t, d_out);
    failed |= check("by-value launch", d_count, d_out, n, 3 * n, 3, 1);

    cudaMemset(d_count, 0, sizeof(int));
    add_scaled<2><<<blocks, threads>>>(t, d_out);
    failed |= check("template launch", d_count, d_out, n, 6 * n, 6, 0);

    void (*kernel)(Tally, int *) = add_step;
    cudaMemset(d_count, 0, sizeof(int));
    (*kernel)<<<blocks, threads>>>(t, d_out);
    failed |= check("(*kernel)<<<>>>", d_count, d_out, n, 3 * n, 3, 1);

    cudaMemset(d_count, 0, sizeof(int));
    kernel<<<blocks, threads>>>(t, d_out);
    failed |= check("kernel_pointer<<<>>>", d_count, d_out, n, 3 * n, 3, 1);

    void *args[] = {&t, &d_out};
    cudaMemset(d_count, 0, sizeof(int));
    cudaLaunchKernel((const void *)add_step, dim3(blocks), dim3(threads), args, 0, 0);
    failed |= check("cudaLaunchKernel", d_count, d_out, n, 3 * n, 3, 1);
    cudaDeviceSynchronize();
  }
  {
    own_scalars<<<blocks, threads>>>((char)-1, (short)-2, 7, 5LL << 33, 1.5f, -4.0, d_out,
                                     shade_three, false, (unsigned char)200, d_out);
    static int out[blocks * threads];
    if (cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost) != cudaSuccess) {
      printf("FAIL kernel_arguments: scalars: %s\n", cudaGetErrorString(cudaGetLastError()));
      failed = 1;
    }
    for (int i = 0; i < n && !failed; i++) {
      int want = 226 + 3 * i + 2 * (i % 8); // each thread's own copies, changed by i only
      if (out[i] != want) {
        printf("FAIL kernel_arguments: scalars: out[%d] is %d, want %d\n", i, out[i], want);
        failed = 1;
      }
    }
  }
  // Five launches: the host copies each argument a few times at most, and destroys every copy
  // it made (plus t itself); 1024 threads per launch must not show here.
  if (host_copies > 5 * 8 || host_destructions != host_copies + 1) {
    printf("FAIL kernel_arguments: %d copies and %d destructions on the host for 5 launches of "
           "%d threads\n",
           host_copies, host_destructions, n);
    failed = 1;
  }
  cudaFree(d_count);
  cudaFree(d_out);
  if (failed) return 1;
  printf("PASS kernel_arguments\n");
  return 0;
}
