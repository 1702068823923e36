// __shared__ __align__(n) declarations get their alignment on the simulator too.
#include <cstdint>
#include <cstdio>
__global__ void k(int *out) {
  __shared__ __align__(16) unsigned char bytes[5];
  __shared__ __align__(64) float wide[3];
  if (threadIdx.x == 0) {
    out[0] = (int)((uintptr_t)bytes % 16);
    out[1] = (int)((uintptr_t)wide % 64);
  }
}
int main() {
  int *d, h[2];
  cudaMalloc((void **)&d, sizeof h);
  k<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%s (misalignment %d, %d)\n", h[0] == 0 && h[1] == 0 ? "PASS" : "FAIL", h[0], h[1]);
  return h[0] || h[1];
}
