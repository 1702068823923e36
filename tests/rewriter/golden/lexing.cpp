#line 1 "lexing.cu"
// Nothing in comments, literals or directives is rewritten.
#include <cstdio>
#define SHIFT(x) ((x) << 2 >> 1)
#define SHARED_TILE \
  __shared__ float tile[32], other[32]; \
  "k<<<1, 1>>>()"
#pragma message("k<<<1, 1>>>(0)")
#if 0
  don't touch
#endif
/* k<<<1, 1>>>(0);
   __shared__ int x, y = 3; */
// k<<<1, 1>>>(0); a line comment \
   continued k<<<2, 2>>>(0);
__global__ void k(int x) {}
void host() {
  const char *a = "k<<<1, 1>>>(0) \" __shared__ int x, y;";
  const char *b = u8"k<<<>>>", *c = L"k<<<", *d = u"\\", *e = U"\"";
  const char *raw = R"(k<<<1, 1>>>(0) ")";
  const char *raw2 = R"delim(
    )" k<<<1, 1>>>(0)
  )delim";
  const char *raw3 = u8R"x(__shared__ int y, z;)x";
  char quote = '\'', lt = '<', gt = '>', wide = L'<';
  int million = 1'000'000, hex = 0xFF'FF, bin = 0b1010'1010;
  double f = 1e+5, g = .5e-3, h = 0x1p-3;
  ::cusim::launch(::cusim::config(1, 1), "k", __FILE__, __LINE__, [=](auto&&... cusim_arg) { ::cusim::detail::call_kernel([&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(k, cusim_probe)) { return ::cusim::detail::kernel_pointer(k, cusim_probe); }, [&] { k(cusim_arg...); }, cusim_arg...); }, million); ::cusim::launch(::cusim::config(1, 1), "k", __FILE__, __LINE__, [=](auto&&... cusim_arg) { ::cusim::detail::call_kernel([&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(k, cusim_probe)) { return ::cusim::detail::kernel_pointer(k, cusim_probe); }, [&] { k(cusim_arg...); }, cusim_arg...); }, 'x'); ::cusim::launch(::cusim::config(1, 1), "k", __FILE__, __LINE__, [=](auto&&... cusim_arg) { ::cusim::detail::call_kernel([&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(k, cusim_probe)) { return ::cusim::detail::kernel_pointer(k, cusim_probe); }, [&] { k(cusim_arg...); }, cusim_arg...); }, sizeof "<<<");
    #  define INDENTED(x) x < y
  /* a comment */ #pragma once
  %: define DIGRAPH 1
}
