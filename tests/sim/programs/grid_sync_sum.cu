// A sum over the whole grid in one kernel, with cooperative groups' grid-wide barrier: each block
// writes its partial sum, grid.sync() waits for every block, then block 0 adds the partials and
// broadcasts the total; a second grid.sync() lets every block scale its part by that total. The
// grid is sized so that all blocks fit on the device at once, as cudaLaunchCooperativeKernel
// requires (cudaOccupancyMaxActiveBlocksPerMultiprocessor x multiProcessorCount).
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

namespace cg = cooperative_groups;

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));                    \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

#define THREADS 128

__global__ void normalize(const float *in, float *out, int n, float *partials, float *total) {
  __shared__ float block_sum[THREADS];
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();

  float mine = 0.0f;
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) {
    mine += in[i];
  }
  block_sum[block.thread_rank()] = mine;
  block.sync();
  for (unsigned int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (block.thread_rank() < stride) {
      block_sum[block.thread_rank()] += block_sum[block.thread_rank() + stride];
    }
    block.sync();
  }
  if (block.thread_rank() == 0) {
    partials[blockIdx.x] = block_sum[0];
  }

  grid.sync(); // every block's partial sum is written

  if (grid.thread_rank() == 0) {
    float sum = 0.0f;
    for (unsigned int b = 0; b < gridDim.x; ++b) {
      sum += partials[b];
    }
    *total = sum;
  }

  grid.sync(); // the total is written

  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) {
    out[i] = in[i] / *total;
  }
}

int main(void) {
  int supported = 0;
  CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, 0));
  if (!supported) {
    printf("FAIL: the device does not support cooperative launches\n");
    return 1;
  }
  int sms = 0, per_sm = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, normalize, THREADS, 0));
  int blocks = sms * per_sm;
  if (blocks > 64) blocks = 64; // enough to show the barrier; keeps the simulator quick
  if (blocks < 2) blocks = 2;

  const int n = 100000;
  float *h_in = (float *)malloc(n * sizeof(float));
  float *h_out = (float *)malloc(n * sizeof(float));
  double want = 0.0;
  for (int i = 0; i < n; ++i) {
    h_in[i] = (float)(i % 7 + 1);
    want += h_in[i];
  }
  float *d_in, *d_out, *d_partials, *d_total;
  CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CHECK(cudaMalloc(&d_partials, blocks * sizeof(float)));
  CHECK(cudaMalloc(&d_total, sizeof(float)));
  CHECK(cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice));

  int count = n;
  void *args[] = {&d_in, &d_out, &count, &d_partials, &d_total};
  CHECK(cudaLaunchCooperativeKernel((void *)normalize, dim3(blocks), dim3(THREADS), args, 0, 0));
  CHECK(cudaDeviceSynchronize());

  float total = 0.0f;
  CHECK(cudaMemcpy(&total, d_total, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  if (fabs(total - want) > 1e-4 * want) {
    printf("FAIL: total %.1f, want %.1f\n", total, want);
    bad = 1;
  }
  for (int i = 0; i < n && !bad; ++i) {
    float expect = (float)(h_in[i] / want);
    if (fabsf(h_out[i] - expect) > 1e-3f * expect) {
      printf("FAIL: out[%d] = %g, want %g\n", i, h_out[i], expect);
      bad = 1;
    }
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_partials));
  CHECK(cudaFree(d_total));
  free(h_in);
  free(h_out);
  if (bad) return 1;
  printf("grid_sync_sum: %d blocks, total %.1f\nPASS\n", blocks, total);
  return 0;
}
