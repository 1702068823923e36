#line 1 "attributes.cu"
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
  ::cusim::launch(::cusim::config(1, 256), "before_global", __FILE__, __LINE__, [=](auto&&... cusim_arg) { ::cusim::detail::call_kernel([&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(before_global, cusim_probe)) { return ::cusim::detail::kernel_pointer(before_global, cusim_probe); }, [&] { before_global(cusim_arg...); }, cusim_arg...); }, x);
  ::cusim::launch(::cusim::config(1, 256), "after_global", __FILE__, __LINE__, [=](auto&&... cusim_arg) { ::cusim::detail::call_kernel([&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(after_global, cusim_probe)) { return ::cusim::detail::kernel_pointer(after_global, cusim_probe); }, [&] { after_global(cusim_arg...); }, cusim_arg...); }, x);
  ::cusim::launch(::cusim::config(1, 256), "shifted", __FILE__, __LINE__, [=](auto&&... cusim_arg) { ::cusim::detail::call_kernel([&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(shifted, cusim_probe)) { return ::cusim::detail::kernel_pointer(shifted, cusim_probe); }, [&] { shifted(cusim_arg...); }, cusim_arg...); }, x);
  ::cusim::launch(::cusim::with_probe(::cusim::config(1, 256), [&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(clamped<256>, cusim_probe)) { return ::cusim::detail::kernel_pointer(clamped<256>, cusim_probe); }), "clamped<256>", __FILE__, __LINE__, [=](auto&&... cusim_arg) { ::cusim::detail::call_kernel([&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(clamped<256>, cusim_probe)) { return ::cusim::detail::kernel_pointer(clamped<256>, cusim_probe); }, [&] { clamped<256>(cusim_arg...); }, cusim_arg...); }, x);
  ::cusim::launch(::cusim::with_probe(::cusim::config(1, 512), [&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(clamped_first<1024>, cusim_probe)) { return ::cusim::detail::kernel_pointer(clamped_first<1024>, cusim_probe); }), "clamped_first<1024>", __FILE__, __LINE__, [=](auto&&... cusim_arg) { ::cusim::detail::call_kernel([&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(clamped_first<1024>, cusim_probe)) { return ::cusim::detail::kernel_pointer(clamped_first<1024>, cusim_probe); }, [&] { clamped_first<1024>(cusim_arg...); }, cusim_arg...); }, x);
  ::cusim::launch(::cusim::config(1, 1), "defaulted", __FILE__, __LINE__, [=](auto&&... cusim_arg) { ::cusim::detail::call_kernel([&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(defaulted, cusim_probe)) { return ::cusim::detail::kernel_pointer(defaulted, cusim_probe); }, [&] { defaulted(cusim_arg...); }, cusim_arg...); }, x);
  ::cusim::launch(::cusim::config(1, 128), "both", __FILE__, __LINE__, [=](auto&&... cusim_arg) { ::cusim::detail::call_kernel([&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(both, cusim_probe)) { return ::cusim::detail::kernel_pointer(both, cusim_probe); }, [&] { both(cusim_arg...); }, cusim_arg...); }, x);
  ::cusim::launch(::cusim::config(1, 1), "bracketed", __FILE__, __LINE__, [=](auto&&... cusim_arg) { ::cusim::detail::call_kernel([&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(bracketed, cusim_probe)) { return ::cusim::detail::kernel_pointer(bracketed, cusim_probe); }, [&] { bracketed(cusim_arg...); }, cusim_arg...); }, x);
  ::cusim::launch(::cusim::config(1, 1), "uses_pair", __FILE__, __LINE__, [=](auto&&... cusim_arg) { ::cusim::detail::call_kernel([&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(uses_pair, cusim_probe)) { return ::cusim::detail::kernel_pointer(uses_pair, cusim_probe); }, [&] { uses_pair(cusim_arg...); }, cusim_arg...); }, Pair{1, 2}, x);
}
