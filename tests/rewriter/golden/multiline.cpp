#line 1 "multiline.cu"
// Launches and declarations spanning lines keep every line where it was.
__global__ void add(float *out, const float *a, int n) {}

void host(float *out, float *a, int n) {
  ::cusim::launch(::cusim::config((n + 255) / 256, 256), "add", __FILE__, __LINE__, [=](auto&&... cusim_arg) { ::cusim::detail::call_kernel([&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(add, cusim_probe)) { return ::cusim::detail::kernel_pointer(add, cusim_probe); }, [&] { add(cusim_arg...); }, cusim_arg...); }, 
               out,
               a,
               n);
  ::cusim::launch(::cusim::config(1, 1), "add", __FILE__, __LINE__, [=](auto&&... cusim_arg) { ::cusim::detail::call_kernel([&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(add, cusim_probe)) { return ::cusim::detail::kernel_pointer(add, cusim_probe); }, [&] { add(cusim_arg...); }, cusim_arg...); }, 


       out, ::cusim::null_arg(), n);
  ::cusim::launch(::cusim::config(1, 1), "add", __FILE__, __LINE__, [=](auto&&... cusim_arg) { ::cusim::detail::call_kernel([&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(add, cusim_probe)) { return ::cusim::detail::kernel_pointer(add, cusim_probe); }, [&] { add(cusim_arg...); }, cusim_arg...); }, 
      out,
      ::cusim::null_arg(),
      n
  );
  ::cusim::launch(::cusim::config(1, 1), "add", __FILE__, __LINE__, [=](auto&&... cusim_arg) { ::cusim::detail::call_kernel([&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(add, cusim_probe)) { return ::cusim::detail::kernel_pointer(add, cusim_probe); }, [&] { add(cusim_arg...); }, cusim_arg...); }, out, a, // a trailing comment
                n);
  int after = 1; // line 20 in the input is line 20 in the output
}
