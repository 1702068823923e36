// Built-ins that are not macros (issue 27, item 4): threadIdx, blockIdx, blockDim and gridDim
// are names of device code only. A host variable (Rodinia nn's `dim3 gridDim`), a parameter and
// a struct member with one of those names build and keep their own values, as under nvcc
// (unit.sim.builtin_names.builds_with_nvcc), while kernels, __device__ functions, lambdas inside
// kernels and cooperative groups still read the built-ins. Prints "builtin names: ok" or each
// value that is wrong.
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

struct launch_shape {
  dim3 gridDim; // members named as the built-ins
  dim3 blockDim;
  unsigned threadIdx;
};

unsigned host_launch_threads(unsigned blocks, unsigned threads); // builtin_names_host.cpp

static unsigned total_threads(dim3 gridDim, dim3 blockDim) { // parameters named so
  return gridDim.x * blockDim.x;
}

__device__ unsigned global_index() {
  return blockIdx.x * blockDim.x + threadIdx.x;
}

__global__ void fill(unsigned *out, unsigned *dims) {
  unsigned i = global_index();
  unsigned via_global = ::blockIdx.x * ::blockDim.x + ::threadIdx.x; // the global built-ins
  auto from_lambda = [&] { return blockIdx.x * blockDim.x + threadIdx.x; };
  cg::thread_block block = cg::this_thread_block();
  if (from_lambda() == i && via_global == i && block.thread_rank() == threadIdx.x)
    out[i] = i;
  else
    out[i] = 0xFFFFFFFFu;
  if (i == 0) {
    dims[0] = gridDim.x;
    dims[1] = blockDim.x;
    dims[2] = warpSize;
  }
}

int main() {
  dim3 gridDim(3), blockDim(64); // host variables with the built-ins' names
  launch_shape shape = {gridDim, blockDim, 7};
  unsigned n = total_threads(shape.gridDim, shape.blockDim);
  unsigned *out = nullptr, *dims = nullptr;
  cudaMallocManaged(&out, n * sizeof(unsigned));
  cudaMallocManaged(&dims, 3 * sizeof(unsigned));
  fill<<<gridDim, blockDim>>>(out, dims);
  cudaError_t err = cudaDeviceSynchronize();
  int wrong = err != cudaSuccess;
  if (err != cudaSuccess) printf("launch: %s\n", cudaGetErrorString(err));
  for (unsigned i = 0; i < n && !wrong; i++)
    if (out[i] != i) {
      printf("out[%u] = %u, want %u\n", i, out[i], i);
      wrong = 1;
    }
  if (dims[0] != 3 || dims[1] != 64 || dims[2] != 32) {
    printf("dims %u %u %u, want 3 64 32\n", dims[0], dims[1], dims[2]);
    wrong = 1;
  }
  if (shape.threadIdx != 7 || gridDim.x != 3 || blockDim.x != 64 ||
      host_launch_threads(5, 7) != 35) {
    printf("host values changed\n");
    wrong = 1;
  }
  cudaFree(out);
  cudaFree(dims);
  printf(wrong ? "builtin names: wrong\n" : "builtin names: ok\n");
  return wrong;
}
