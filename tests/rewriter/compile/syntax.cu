// Compiled against the stub: tricky but valid launches and declarations.
#include <algorithm>
template <typename T> struct Box { T value; };
namespace ns {
template <typename T, int N> __global__ void scale(T *x, int n = N) { x[0] *= n; }
} // namespace ns
template <typename T> __global__ void fill(T *x) {}
__global__ void pointers(const float *a, float *b, int n, unsigned long m) {}

template <typename T, int BLOCK> __global__ void transpose(T *out, const T *in) {
  __shared__ T tile[BLOCK][BLOCK + 1];
  static __shared__ volatile int flags[2];
  __shared__ __align__(16) unsigned char bytes[BLOCK];
  __shared__ Box<T> *box;
  extern __shared__ __align__(16) unsigned char smem[];
  tile[threadIdx.x][threadIdx.y] = in[0];
  flags[0] = bytes[0] + smem[0];
  out[0] = tile[threadIdx.y][threadIdx.x];
  (void)box;
}

void host(float *x, Box<Box<int>> *boxes, cudaStream_t stream, int n) {
  ns::scale<float, 4><<<1, 32>>>(x);
  ::ns::scale<float, (4 > 2 ? 8 : 2)><<<1, 32, 0, stream>>>(x, n);
  fill<Box<Box<int>>><<<1, 1>>>(boxes);
  fill<Box<Box<int> > ><<<std::max(1, n), 1>>>(boxes);
  ns::template scale<double, 1><<<dim3(n / 256 + 1), dim3(256)>>>(0);
  fill<<<static_cast<unsigned>(sizeof(float)), std::max<int>(1, 2)>>>(x);
  pointers<<<1, 1>>>(0, NULL, 0, 0UL);
  pointers<<<1, 1>>>(x, x, [=](int i) { return i + n; }(1), 0L);
  transpose<float, 16><<<1, dim3(16, 16)>>>(x, x);
  int million = 1'000'000;
  (void)million;
}
