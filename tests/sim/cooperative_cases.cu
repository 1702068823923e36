// Cooperative launches as strict as a GPU. Usage: cooperative_cases CASE
//   not_cooperative  grid.sync() in a kernel launched with <<< >>> (a GPU traps)
//   too_large        a cooperative grid larger than the device holds at once
//   block_exits      a block returns without reaching grid.sync() (a GPU hangs)
//   is_valid         this_grid().is_valid() with and without a cooperative launch
//   spin             blocks wait for each other through a flag (all are resident at once)
#include <cooperative_groups.h>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void sync_twice(int *out) {
  cg::grid_group grid = cg::this_grid();
  out[grid.thread_rank()] = 1;
  grid.sync();
  int sum = out[grid.thread_rank()] + out[(grid.thread_rank() + 64) % grid.size()];
  grid.sync(); // every read above is done before any thread writes (else a race)
  out[grid.thread_rank()] = sum;
}

__global__ void first_block_returns(int *out) {
  if (blockIdx.x == 0) return;
  cg::this_grid().sync();
  out[blockIdx.x] = 1;
}

__global__ void report_valid(int *out) {
  if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = cg::this_grid().is_valid() ? 1 : 0;
}

// Block 0 waits until the last block has set a flag: this works on a GPU only if every block is
// resident at once, which a cooperative launch guarantees.
__global__ void wait_for_last_block(volatile int *flag, int *out) {
  if (threadIdx.x == 0) {
    if (blockIdx.x == gridDim.x - 1) {
      *flag = 1;
    } else {
      while (*flag == 0) {
      }
    }
    out[blockIdx.x] = 1;
  }
}

int main(int argc, char **argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0); // lines in order with the simulator's on stderr
  const char *c = argc > 1 ? argv[1] : "";
  int *d = nullptr;
  cudaMalloc(&d, 4096 * sizeof(int));
  cudaMemset(d, 0, 4096 * sizeof(int));
  if (!std::strcmp(c, "not_cooperative")) {
    sync_twice<<<2, 64>>>(d);
    std::printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
    std::printf("cudaDeviceSynchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
  }
  if (!std::strcmp(c, "too_large")) {
    int sms = 0, per_sm = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, sync_twice, 64, 0);
    void *args[] = {&d};
    cudaError_t fits =
        cudaLaunchCooperativeKernel((void *)sync_twice, dim3(sms * per_sm), dim3(64), args, 0, 0);
    cudaError_t ran = cudaDeviceSynchronize();
    int first = -1;
    cudaMemcpy(&first, d, sizeof first, cudaMemcpyDeviceToHost);
    std::printf("%d blocks: %s, %s, out[0] = %d\n", sms * per_sm, cudaGetErrorName(fits),
                cudaGetErrorName(ran), first);
    cudaError_t e = cudaLaunchCooperativeKernel((void *)sync_twice, dim3(sms * per_sm + 1),
                                                dim3(64), args, 0, 0);
    std::printf("one more block: %s\n", cudaGetErrorName(e));
    std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
    std::printf("cudaDeviceSynchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
  }
  if (!std::strcmp(c, "block_exits")) {
    void *args[] = {&d};
    cudaError_t e =
        cudaLaunchCooperativeKernel((void *)first_block_returns, dim3(4), dim3(32), args, 0, 0);
    std::printf("launch: %s\n", cudaGetErrorName(e));
    std::printf("cudaDeviceSynchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
  }
  if (!std::strcmp(c, "is_valid")) {
    int v = -1;
    report_valid<<<2, 32>>>(d);
    cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost);
    std::printf("<<< >>>: is_valid %d\n", v);
    void *args[] = {&d};
    cudaLaunchCooperativeKernel(report_valid, dim3(2), dim3(32), args);
    cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost);
    std::printf("cooperative: is_valid %d\n", v);
    return 0;
  }
  if (!std::strcmp(c, "spin")) {
    int *flag = d + 2048;
    void *args[] = {&flag, &d};
    cudaError_t e =
        cudaLaunchCooperativeKernel((void *)wait_for_last_block, dim3(8), dim3(32), args, 0, 0);
    cudaError_t s = cudaDeviceSynchronize();
    int out[8] = {0};
    cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost);
    int sum = 0;
    for (int i = 0; i < 8; ++i) sum += out[i];
    std::printf("spin: %s, %s, %d of 8 blocks done\n", cudaGetErrorName(e), cudaGetErrorName(s),
                sum);
    return 0;
  }
  std::fprintf(stderr, "usage: cooperative_cases not_cooperative|too_large|block_exits|is_valid|"
                       "spin\n");
  return 2;
}
