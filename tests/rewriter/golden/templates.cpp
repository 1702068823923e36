#line 1 "templates.cu"
// Callees with template arguments, scopes and nested templates.
namespace ns {
template <typename T, int N> __global__ void scale(T *x) {}
}
template <typename T> struct Box {};
template <typename T> __global__ void fill(T *x) {}

void host(float *x, Box<Box<int>> *boxes) {
  ::cusim::launch(::cusim::config(1, 32), "ns::scale<float, 4>", __FILE__, __LINE__, [=](auto&&... cusim_arg) { ::cusim::detail::call_kernel([&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(ns::scale<float, 4>, cusim_probe)) { return ::cusim::detail::kernel_pointer(ns::scale<float, 4>, cusim_probe); }, [&] { ns::scale<float, 4>(cusim_arg...); }, cusim_arg...); }, x);
  ::cusim::launch(::cusim::config(1, 32), "::ns::scale<float, (4 > 2 ? 8 : 2)>", __FILE__, __LINE__, [=](auto&&... cusim_arg) { ::cusim::detail::call_kernel([&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(::ns::scale<float, (4 > 2 ? 8 : 2)>, cusim_probe)) { return ::cusim::detail::kernel_pointer(::ns::scale<float, (4 > 2 ? 8 : 2)>, cusim_probe); }, [&] { ::ns::scale<float, (4 > 2 ? 8 : 2)>(cusim_arg...); }, cusim_arg...); }, x);
  ::cusim::launch(::cusim::config(1, 1), "fill<Box<Box<int>>>", __FILE__, __LINE__, [=](auto&&... cusim_arg) { ::cusim::detail::call_kernel([&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(fill<Box<Box<int>>>, cusim_probe)) { return ::cusim::detail::kernel_pointer(fill<Box<Box<int>>>, cusim_probe); }, [&] { fill<Box<Box<int>>>(cusim_arg...); }, cusim_arg...); }, boxes);
  ::cusim::launch(::cusim::config(1, 1), "fill<Box<Box<int> > >", __FILE__, __LINE__, [=](auto&&... cusim_arg) { ::cusim::detail::call_kernel([&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(fill<Box<Box<int> > >, cusim_probe)) { return ::cusim::detail::kernel_pointer(fill<Box<Box<int> > >, cusim_probe); }, [&] { fill<Box<Box<int> > >(cusim_arg...); }, cusim_arg...); }, boxes);
  ::cusim::launch(::cusim::config(1, 1), "fill<Box<Box<Box<int>>>>", __FILE__, __LINE__, [=](auto&&... cusim_arg) { ::cusim::detail::call_kernel([&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(fill<Box<Box<Box<int>>>>, cusim_probe)) { return ::cusim::detail::kernel_pointer(fill<Box<Box<Box<int>>>>, cusim_probe); }, [&] { fill<Box<Box<Box<int>>>>(cusim_arg...); }, cusim_arg...); }, ::cusim::null_arg());
  ::cusim::launch(::cusim::config(1, 1), "ns::template scale<double, 1>", __FILE__, __LINE__, [=](auto&&... cusim_arg) { ::cusim::detail::call_kernel([&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(ns::template scale<double, 1>, cusim_probe)) { return ::cusim::detail::kernel_pointer(ns::template scale<double, 1>, cusim_probe); }, [&] { ns::template scale<double, 1>(cusim_arg...); }, cusim_arg...); }, ::cusim::null_arg());
  ::cusim::launch(::cusim::config(static_cast<int>(sizeof(float)), std::max<int>(1, 2)), "fill", __FILE__, __LINE__, [=](auto&&... cusim_arg) { ::cusim::detail::call_kernel([&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(fill, cusim_probe)) { return ::cusim::detail::kernel_pointer(fill, cusim_probe); }, [&] { fill(cusim_arg...); }, cusim_arg...); }, x);
  ::cusim::launch(::cusim::config(dim3(1, 2, 3), dim3(4, 5)), "fill<float>", __FILE__, __LINE__, [=](auto&&... cusim_arg) { ::cusim::detail::call_kernel([&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(fill<float>, cusim_probe)) { return ::cusim::detail::kernel_pointer(fill<float>, cusim_probe); }, [&] { fill<float>(cusim_arg...); }, cusim_arg...); }, x);
  auto shift = x[0] >> 2;
  bool less = x[0] < x[1], more = x[1] > x[0];
  int shifted = 1 << 3, z = 8 >> 1;
  std::cout << "a" << 1 << std::endl;
}
