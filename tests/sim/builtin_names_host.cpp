// Host C++ of builtin_names.cu's program, in a .cpp file that includes the runtime's header:
// variables named gridDim and blockDim build here too (issue 27, item 4).
#include <cuda_runtime.h>

unsigned host_launch_threads(unsigned blocks, unsigned threads) {
  dim3 gridDim(blocks), blockDim(threads);
  return gridDim.x * blockDim.x;
}
