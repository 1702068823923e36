// Heat diffusion along a rod (the stencil of a thermal benchmark), with a bug of its own, kept on
// purpose: each block stages its cells and one halo cell on each side in shared memory, but at
// the rod's two ends the halo cell is never written, and the end threads still read it before
// they replace it with their own value. A GPU reads whatever the shared memory held and drops
// it, so its answer is right; the simulator's checker is stricter and stops the kernel at the
// read, in one line. The suite expects that line and a non-zero exit here, and a PASS on a GPU.
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CELLS 4096
#define BLOCK 256
#define STEPS 20

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL hotspot: %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__);         \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

__global__ void diffuse(const float *in, float *out, int n) {
  __shared__ float tile[BLOCK + 2];
  int t = threadIdx.x, i = blockIdx.x * BLOCK + t;
  tile[t + 1] = in[i];
  if (t == 0 && i > 0) tile[0] = in[i - 1];
  if (t == BLOCK - 1 && i < n - 1) tile[BLOCK + 1] = in[i + 1];
  __syncthreads();
  float left = tile[t], right = tile[t + 2]; // at the ends: never written (the bug)
  if (i == 0) left = tile[t + 1];
  if (i == n - 1) right = tile[t + 1];
  out[i] = tile[t + 1] + 0.25f * (left - 2.0f * tile[t + 1] + right);
}

int main(void) {
  static float rod[CELLS], expected[CELLS], next[CELLS];
  for (int i = 0; i < CELLS; i++) rod[i] = expected[i] = (i % 512 < 64) ? 100.0f : 0.0f;
  float *d_a, *d_b;
  CHECK(cudaMalloc((void **)&d_a, sizeof rod));
  CHECK(cudaMalloc((void **)&d_b, sizeof rod));
  CHECK(cudaMemcpy(d_a, rod, sizeof rod, cudaMemcpyHostToDevice));
  for (int s = 0; s < STEPS; s++) {
    diffuse<<<CELLS / BLOCK, BLOCK>>>(d_a, d_b, CELLS);
    CHECK(cudaGetLastError());
    float *swap = d_a;
    d_a = d_b;
    d_b = swap;
  }
  CHECK(cudaMemcpy(rod, d_a, sizeof rod, cudaMemcpyDeviceToHost));
  for (int s = 0; s < STEPS; s++) {
    for (int i = 0; i < CELLS; i++) {
      float left = i > 0 ? expected[i - 1] : expected[i];
      float right = i < CELLS - 1 ? expected[i + 1] : expected[i];
      next[i] = expected[i] + 0.25f * (left - 2.0f * expected[i] + right);
    }
    for (int i = 0; i < CELLS; i++) expected[i] = next[i];
  }
  int wrong = 0;
  for (int i = 0; i < CELLS; i++) wrong += fabsf(rod[i] - expected[i]) > 1e-3f;
  if (wrong == 0) {
    printf("PASS hotspot: %d cells after %d steps, as the CPU's\n", CELLS, STEPS);
  } else {
    printf("FAIL hotspot: %d of %d cells differ from the CPU's\n", wrong, CELLS);
  }
  cudaFree(d_a);
  cudaFree(d_b);
  return wrong == 0 ? 0 : 1;
}
