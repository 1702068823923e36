// nvcc-flags: -Xcompiler -Wall,-Wextra,-Werror
// Built with the host compiler's warnings as errors, as Makefiles often do: nvcc's host compiler
// never sees the bodies of __global__ and __device__-only functions, so their warnings
// (sign-compare, unused parameters, an unused static device function) never fail nvcc's build,
// and nvcc-sim builds it too. Host code, and __host__ __device__ functions, keep -Werror: with
// -DHOST_WARNING or -DHOST_DEVICE_WARNING the build fails under nvcc and under nvcc-sim.
#include <cstdio>

__global__ void last_thread(int *out, int unused_count) {
  int t = threadIdx.x;
  if (t == blockDim.x - 1) out[0] = t; // int == unsigned: -Wsign-compare
}

template <typename T> __global__ void fill(T *out, int n) {
  for (int i = threadIdx.x; i < blockDim.x * 2; i += blockDim.x) // int < unsigned
    if (i < n) out[i] = (T)i;
}

static __device__ int never_called(int a, int b) {
  return a;
} // unused: b, and the function

struct Counter {
  __device__ unsigned below(int t, unsigned limit) const { return t < limit; } // int < unsigned
};

__device__ unsigned count_below(const int *x, int n, unsigned limit) {
  Counter c;
  unsigned count = 0;
  for (int i = 0; i < n; i++) count += c.below(x[i], limit);
  return count;
}

__global__ void below_limit(const int *x, int n, unsigned *count) {
  if (threadIdx.x == 0) *count = count_below(x, n, 3);
}

#ifdef HOST_DEVICE_WARNING
__host__ __device__ unsigned both(int t, unsigned m) {
  return t < m; // error: host code too
}
#endif

int main() {
  int *out = NULL;
  unsigned *count = NULL;
  cudaMalloc((void **)&out, 64 * sizeof(int));
  cudaMalloc((void **)&count, sizeof(unsigned));
  last_thread<<<1, 32>>>(out, 0);
  int last = -1;
  cudaMemcpy(&last, out, sizeof last, cudaMemcpyDeviceToHost);
  fill<int><<<1, 32>>>(out, 64);
  below_limit<<<1, 32>>>(out, 64, count);
  int values[64];
  unsigned below = 0;
  cudaMemcpy(values, out, sizeof values, cudaMemcpyDeviceToHost);
  cudaMemcpy(&below, count, sizeof below, cudaMemcpyDeviceToHost);
  cudaFree(out);
  cudaFree(count);
#ifdef HOST_WARNING
  unsigned size = 64;
  for (int i = 0; i < size; i++) values[i] += 0; // error: host code keeps -Werror
#endif
  int wrong = last != 31 || below != 3;
  for (int i = 0; i < 64; i++) wrong |= values[i] != i;
  printf(wrong ? "FAIL werror_device_warnings: last %d, below %u\n"
               : "PASS werror_device_warnings: last %d, below %u\n",
         last, below);
  return wrong;
}
