// Runs under the stub: checks that the rewritten launches call the right kernels with the right
// arguments, that templates deduce, default arguments work and 0 / NULL reach pointer
// parameters, and that __shared__ variables are real storage.
#include <cstdio>

template <typename T> __global__ void fill(T *out, T value, int n = 3) {
  for (int i = 0; i < n; i++) out[i] = value;
}

__global__ void maybe(const float *in, float *out, int n) {
  std::printf("maybe: in %s, out %s, n %d\n", in ? "set" : "null", out ? "set" : "null", n);
}

namespace ns {
template <int N> __global__ void sum(const int *in, int *out) {
  __shared__ int partial[N];
  __shared__ int count;
  static __shared__ __align__(16) volatile float aligned[4];
  extern __shared__ __align__(16) unsigned char dynamic[];
  count = 0;
  for (int i = 0; i < N; i++) partial[i] = in[i];
  for (int i = 0; i < N; i++) count += partial[i];
  dynamic[0] = 1;
  *out = count + dynamic[0];
  std::printf("aligned to 16: %s\n", reinterpret_cast<std::size_t>(&aligned[0]) % 16 == 0 ? "yes" : "no");
}
} // namespace ns

int main() {
  float floats[3] = {0, 0, 0};
  int ints[4] = {1, 2, 3, 4}, total = 0;
  fill<<<1, 32>>>(floats, 2.5f);
  fill<float><<<dim3(2), dim3(64), 0, 0>>>(floats,
                                          1.5f,
                                          2);
  std::printf("floats: %g %g %g\n", floats[0], floats[1], floats[2]);
  maybe<<<1, 1>>>(0, NULL, 0);
  maybe<<<1, 1>>>(floats, 0L, 7);
  ns::sum<4><<<1, 1, 16>>>(ints, &total);
  std::printf("total: %d\n", total);
  return 0;
}
