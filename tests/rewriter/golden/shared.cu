// __shared__ declarations of every shape the contract covers.
#define BLOCK 16
template <typename T, int N> __global__ void kernel(T *out) {
  __shared__ float tile[BLOCK][BLOCK + 1];
  __shared__ int count;
  __shared__ T values[N];
  static __shared__ double sums[32];
  volatile __shared__ float warp_sums[32];
  __shared__ volatile int flags[2][2][2];
  __shared__ __align__(16) float aligned[4];
  static __align__(8) __shared__ volatile unsigned char bytes[64];
  float __shared__ after_type[8];
  __device__ __shared__ int both;
  __shared__ typename Traits<T>::type traits[4];
  __shared__ Pair<int, float> pairs[BLOCK];
  __shared__ float *pointer;
  __shared__ float
      spread[BLOCK]
      [2];
  extern __shared__ float dynamic[];
  extern __shared__ __align__(16) unsigned char smem[];
  extern __shared__ T typed[];
  {
    __shared__ int nested[4];
  }
  auto lambda = [] { __shared__ int in_lambda; };
}
namespace ns {
__device__ void helper() { __shared__ int in_namespace[2]; }
}
struct S {
  __device__ void method() { __shared__ int in_method; }
};
__global__ void several() {
  __shared__ float a[16], b[16];
  __shared__ int x, y[4];
  static __shared__ __align__(8) float *p, q[2][3], *r[2];
  extern __shared__ double d[], e[];
}
