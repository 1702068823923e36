// Built-in variables and launches written with no space after % or :, as HeCBench's matrixT
// writes (blockIdx.x+blockIdx.y)%gridDim.x. nvcc builds it; the simulator's rewritten text must
// not turn "%" and "::" into the digraph "%:" (#), nor ":" and "::" into ":::".
#include <stdio.h>

// The missing spaces are the test:
// clang-format off
__global__ void diagonal(int *out, int flip) {
  int block = (blockIdx.x + 1)%gridDim.x;
  int lane = flip ? 0 :threadIdx.x%blockDim.x;
  out[blockIdx.x * blockDim.x + threadIdx.x] = block * 100 + lane;
}
// clang-format on

int main(void) {
  const int blocks = 3, threads = 4, n = blocks * threads;
  int *d_out;
  int out[n];
  cudaMalloc(&d_out, n * sizeof(int));
  for (int mode = 0; mode < 2; mode++) {
    // clang-format off
    switch (mode) {
    case 0:diagonal<<<blocks, threads>>>(d_out, 0);
      break;
    default:diagonal<<<blocks, threads>>>(d_out, 1);
    }
    // clang-format on
    cudaMemcpy(out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < n; i++) {
      int b = i / threads, t = i % threads;
      int expected = ((b + 1) % blocks) * 100 + (mode ? 0 : t);
      if (out[i] != expected) wrong++;
    }
    if (wrong) {
      printf("FAIL builtins_without_spaces: mode %d, %d wrong values\n", mode, wrong);
      return 1;
    }
  }
  cudaFree(d_out);
  printf("PASS builtins_without_spaces\n");
  return 0;
}
