// CUDA allows __shared__ at file scope, and the simulator rewrites it (golden/shared_file_scope);
// in a namespace it does not. A later declaration of the same name in a block hides it (golden);
// one the rename cannot follow (a parameter, an in-kernel __shared__) is refused rather than
// silently taken for the __shared__ variable.
__shared__ float table[256];
namespace ns {
__shared__ int counter;
}
__global__ void kernel(float *out) {
  __shared__ float table[4];
  out[0] = table[0];
}
__device__ float twice(float table) {
  return 2.0f * table;
}
// expect-error: 7:1: __shared__ variable 'counter' in a namespace or class is not supported by the simulator; declare it at file scope or inside the kernel
// expect-error: 10:20: 'table' is declared again after a __shared__ variable of that name at file scope; the simulator does not tell them apart: rename one
// expect-error: 13:30: 'table' is declared again after a __shared__ variable of that name at file scope; the simulator does not tell them apart: rename one
