// Compiled against the stub: every construct keeps the lines after it where they were.
static_assert(__LINE__ == 2, "line 2");
template <typename T, int N> __global__ void kernel(T *out, const T *in, int n) {
  __shared__ T tile[N]
      [N + 1];
  static_assert(__LINE__ == 6, "line 6");
  extern __shared__
      float dynamic[];
  static_assert(__LINE__ == 9, "line 9");
  tile[0][0] = in[0];
  out[0] = tile[0][0] + dynamic[0] + n;
}
void host(float *out, const float *in, int n) {
  kernel<float, 4>
      <<<(n + 255) / 256, // blocks
         256>>>
      (out,
       in,
       n);
  static_assert(__LINE__ == 20, "line 20");
  kernel<float, 4><<<1, 1>>>(out, in, /* a comment
      over two lines */ n);
  static_assert(__LINE__ == 23, "line 23");
  const char *text = R"(
k<<<1, 1>>>(0);
)";
  static_assert(__LINE__ == 27, "line 27");
  (void)text;
}
