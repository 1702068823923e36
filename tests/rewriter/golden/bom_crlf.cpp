#line 1 "bom_crlf.cu"
// A byte order mark is dropped.
__global__ void k(int x) {
  typedef int cusim_shared_t_s; cusim_shared_t_s& s = *::cusim::shared_var<cusim_shared_t_s>([]{});
}
void host() {
  ::cusim::launch(::cusim::config(1, 1), "k", __FILE__, __LINE__, [=](auto&&... cusim_arg) { ::cusim::detail::call_kernel([&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(k, cusim_probe)) { return ::cusim::detail::kernel_pointer(k, cusim_probe); }, [&] { k(cusim_arg...); }, cusim_arg...); }, 
           ::cusim::null_arg());
}
