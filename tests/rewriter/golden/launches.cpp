#line 1 "launches.cu"
// Kernel launches of every shape the contract covers.
__global__ void add(float *out, const float *a, const float *b, int n) {}
__global__ void empty() {}

void host(float *out, float *a, float *b, int n, cudaStream_t stream) {
  ::cusim::launch(::cusim::config((n + 255) / 256, 256), "add", __FILE__, __LINE__, [=](auto&&... cusim_arg) { add(cusim_arg...); }, out, a, b, n);
  ::cusim::launch(::cusim::config(dim3(n / 256 + 1), dim3(256), 0, stream), "add", __FILE__, __LINE__, [=](auto&&... cusim_arg) { add(cusim_arg...); }, out, a, b, n);
  ::cusim::launch(::cusim::config(1, 1, 64 * sizeof(float)), "add", __FILE__, __LINE__, [=](auto&&... cusim_arg) { add(cusim_arg...); }, out, a, b, n);
  ::cusim::launch(::cusim::config(1, 1), "empty", __FILE__, __LINE__, [=](auto&&... cusim_arg) { empty(cusim_arg...); });
  ::cusim::launch(::cusim::config(1, 1), "empty", __FILE__, __LINE__, [=](auto&&... cusim_arg) { empty(cusim_arg...); } /* nothing */ );
  ::cusim::launch(::cusim::config(2 , 32), "add", __FILE__, __LINE__, [=](auto&&... cusim_arg) { add(cusim_arg...); },  out , a , b , n ) ;
  ::cusim::launch(::cusim::config(1, 1), "add", __FILE__, __LINE__, [=](auto&&... cusim_arg) { add(cusim_arg...); }, ::cusim::null_arg(), ::cusim::null_arg(), ::cusim::null_arg(), ::cusim::null_arg());
  ::cusim::launch(::cusim::config(1, 1), "add", __FILE__, __LINE__, [=](auto&&... cusim_arg) { add(cusim_arg...); }, ::cusim::null_arg() /* null */, NULL + 0, (0), 00);
  ::cusim::launch(::cusim::config(1, 1), "add", __FILE__, __LINE__, [=](auto&&... cusim_arg) { add(cusim_arg...); }, f(0, 1), a[0], {0}, [=](int i) { return i, 0; }(0));
  if (n) ::cusim::launch(::cusim::config(1, 1), "add", __FILE__, __LINE__, [=](auto&&... cusim_arg) { add(cusim_arg...); }, out, a, b, n); else ::cusim::launch(::cusim::config(1, 1), "empty", __FILE__, __LINE__, [=](auto&&... cusim_arg) { empty(cusim_arg...); });
  for (int i = 0; i < 3; i++)
    ::cusim::launch(::cusim::config(i + 1, 32), "add", __FILE__, __LINE__, [=](auto&&... cusim_arg) { add(cusim_arg...); }, out, a, b, n), ::cusim::launch(::cusim::config(1,1), "empty", __FILE__, __LINE__, [=](auto&&... cusim_arg) { empty(cusim_arg...); });
  cudaStream_t streams[2];
  ::cusim::launch(::cusim::config(1, 1, 0, streams[n % 2]), "empty", __FILE__, __LINE__, [=](auto&&... cusim_arg) { empty(cusim_arg...); });
  ::cusim::launch(::cusim::config(1, (n > 1 ? 2 : 1)), "add", __FILE__, __LINE__, [=](auto&&... cusim_arg) { add(cusim_arg...); }, out, a, b, n >> 1);
}
