// Names resolved as C++ resolves them (issue 27, item 4): device code that calls cg::reduce, or
// any qualified name, calls that namespace's function, never the host's function of the same
// short name. nvcc builds this file (unit.sim.qualified_names.builds_with_nvcc); the simulator
// refused it ("device code calls the host function 'reduce'"). An unqualified call of a host
// function from device code is still refused (tests/nocompile). Prints "qualified names: ok".
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

// The host's own reduce and scan: same short names as cooperative groups' functions.
static int reduce(const int *values, int n) {
  int sum = 0;
  for (int i = 0; i < n; i++) sum += values[i];
  return sum;
}
static void inclusive_scan(int *values, int n) {
  for (int i = 1; i < n; i++) values[i] += values[i - 1];
}

namespace tools {
__device__ int twice(int x) {
  return 2 * x;
}
} // namespace tools

__global__ void warp_sums(const int *in, int *sums, int *scans) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int sum = cg::reduce(warp, in[i], cg::plus<int>());
  scans[i] = cooperative_groups::inclusive_scan(warp, tools::twice(in[i]), cg::plus<int>());
  if (warp.thread_rank() == 0) sums[i / 32] = sum;
}

int main() {
  enum { n = 128 };
  int *in = nullptr, *sums = nullptr, *scans = nullptr;
  cudaMallocManaged(&in, n * sizeof(int));
  cudaMallocManaged(&sums, n / 32 * sizeof(int));
  cudaMallocManaged(&scans, n * sizeof(int));
  int host[n];
  for (int i = 0; i < n; i++) in[i] = host[i] = (i * 7) % 13 - 5;
  warp_sums<<<2, 64>>>(in, sums, scans);
  cudaError_t err = cudaDeviceSynchronize();
  int wrong = err != cudaSuccess;
  if (wrong) printf("launch: %s\n", cudaGetErrorString(err));
  for (int w = 0; w < n / 32 && !wrong; w++) {
    int want = reduce(host + 32 * w, 32);
    if (sums[w] != want) {
      printf("warp %d: sum %d, want %d\n", w, sums[w], want);
      wrong = 1;
    }
    int doubled[32];
    for (int k = 0; k < 32; k++) doubled[k] = 2 * host[32 * w + k];
    inclusive_scan(doubled, 32);
    for (int k = 0; k < 32 && !wrong; k++)
      if (scans[32 * w + k] != doubled[k]) {
        printf("warp %d lane %d: scan %d, want %d\n", w, k, scans[32 * w + k], doubled[k]);
        wrong = 1;
      }
  }
  cudaFree(in);
  cudaFree(sums);
  cudaFree(scans);
  printf(wrong ? "qualified names: wrong\n" : "qualified names: ok\n");
  return wrong;
}
