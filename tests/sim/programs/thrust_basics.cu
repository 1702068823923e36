// Thrust beside the program's own kernels: sort, transform and reduce on device_vectors, and a
// device_vector's memory handed to a kernel through thrust::raw_pointer_cast. No synchronization
// between a kernel and the Thrust call after it: Thrust's work is ordered after the kernel on the
// default stream, as on a GPU.
#include <cuda_runtime.h>
#include <stdio.h>
#include <thrust/device_free.h>
#include <thrust/device_malloc.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));                    \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

struct square {
  __host__ __device__ long long operator()(int x) const { return (long long)x * x; }
};

__global__ void add_offset(int *values, int n, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    values[i] += offset;
  }
}

__global__ void count_sorted(const int *values, int n, int *unsorted) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n && values[i] > values[i + 1]) {
    atomicAdd(unsorted, 1);
  }
}

int main(void) {
  const int n = 3000;
  const int offset = 1000;
  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;

  // 0..n-1 in a scrambled order (7 and 3000 have no common factor).
  thrust::host_vector<int> h(n);
  for (int i = 0; i < n; ++i) {
    h[i] = (int)((7LL * i + 11) % n);
  }
  thrust::device_vector<int> d = h;
  thrust::sort(d.begin(), d.end());

  // The program's own kernel on the device_vector's memory; the transform right after it must
  // see what the kernel wrote.
  add_offset<<<blocks, threads>>>(thrust::raw_pointer_cast(d.data()), n, offset);
  CHECK(cudaGetLastError());
  thrust::device_vector<long long> squares(n);
  thrust::transform(d.begin(), d.end(), squares.begin(), square());
  long long total = thrust::reduce(squares.begin(), squares.end(), 0LL);

  long long expected = 0;
  for (int i = 0; i < n; ++i) {
    expected += (long long)(i + offset) * (i + offset);
  }

  // Back by cudaMemcpy from the device_vector's memory.
  int *back = (int *)malloc(n * sizeof(int));
  CHECK(cudaMemcpy(back, thrust::raw_pointer_cast(d.data()), n * sizeof(int),
                   cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    if (back[i] != i + offset) {
      ++wrong;
    }
  }
  free(back);

  // Memory from thrust::device_malloc counted into by a kernel, read back through Thrust.
  thrust::device_ptr<int> unsorted = thrust::device_malloc<int>(1);
  *unsorted = 0;
  count_sorted<<<blocks, threads>>>(thrust::raw_pointer_cast(d.data()), n,
                                    thrust::raw_pointer_cast(unsorted));
  CHECK(cudaGetLastError());
  int pairs_out_of_order = *unsorted;
  thrust::device_free(unsorted);
  CHECK(cudaDeviceSynchronize());

  if (wrong != 0 || total != expected || pairs_out_of_order != 0) {
    printf("FAIL thrust_basics: %d of %d values wrong after sort and kernel, sum of squares %lld "
           "(expected %lld), %d pairs out of order\n",
           wrong, n, total, expected, pairs_out_of_order);
    return 1;
  }
  printf("PASS thrust_basics: sorted, shifted by a kernel, sum of squares %lld\n", total);
  return 0;
}
