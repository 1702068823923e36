# 1 "device_attributes.cu"
// Preprocessed input (the linemarker above), so device code's shifts and casts are hooked; an
// attribute's arguments are constants, left as they are.
__global__ void k(int *x, int s) {
  alignas((64 >> 2) > 8 ? 16 : 8) int v[2] = {1, 2};
  __attribute__((aligned(1 << 4))) int w[2] = {3, 4};
  alignas((int)16.0) int u[1] = {5};
  [[maybe_unused]] int y = x[0] >> s;
  x[0] = v[0] + w[1] + u[0] + (x[1] << s) + (int)(x[2] * 2.5f);
}
