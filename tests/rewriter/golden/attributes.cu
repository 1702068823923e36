// Attribute groups are opaque: '<', '>', '>>', '?' and ':' in their arguments are expressions,
// never template angles, labels or access specifiers (nvcc builds every kernel here).
#define LIMIT 512
__launch_bounds__(256, 4 < 8 ? 2 : 1) __global__ void before_global(int *x) { x[0] = 1; }
__global__ void __launch_bounds__(256, 8 > 4 ? 2 : 1) after_global(int *x) { x[0] = 2; }
__global__ void __launch_bounds__((1024 >> 2), (4 >> 1)) shifted(int *x) { x[0] = 3; }
template <int N> __global__ void __launch_bounds__(N < LIMIT ? N : LIMIT) clamped(int *x) {
  x[0] = N;
}
template <int N> __launch_bounds__(N > LIMIT ? LIMIT : N) __global__ void clamped_first(int *x) {
  x[0] = N;
}
template <int N = (3 > 2)> __global__ void defaulted(int *x) { x[0] = N; }
__global__ void __attribute__((noinline)) __launch_bounds__(128 < 256 ? 128 : 256) both(int *x) {
  x[0] = 4;
}
[[deprecated("a < b ? c : d")]] __global__ void bracketed(int *x) { x[0] = 5; }
struct alignas(sizeof(int) > 2 ? 16 : 8) Pair { int a, b; };
__global__ void uses_pair(Pair p, int *x) { x[0] = p.a < p.b ? p.a : p.b; }

void host(int *x) {
  before_global<<<1, 256>>>(x);
  after_global<<<1, 256>>>(x);
  shifted<<<1, 256>>>(x);
  clamped<256><<<1, 256>>>(x);
  clamped_first<1024><<<1, 512>>>(x);
  defaulted<<<1, 1>>>(x);
  both<<<1, 128>>>(x);
  bracketed<<<1, 1>>>(x);
  uses_pair<<<1, 1>>>(Pair{1, 2}, x);
}
