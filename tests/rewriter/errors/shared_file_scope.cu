// CUDA allows __shared__ at file scope, and the simulator rewrites it (golden/shared_file_scope);
// in a namespace it does not. The rename of its uses knows no scopes: a later declaration of the
// same name is refused rather than silently taken for the __shared__ variable.
__shared__ float table[256];
namespace ns {
__shared__ int counter;
}
__global__ void kernel(float *out) {
  __shared__ float table[4];
  out[0] = table[0];
}
__device__ float sum(int n) {
  float table = 0.0f;
  return table + n;
}
struct holder {
  int table;
};
// expect-error: 6:1: __shared__ variable 'counter' in a namespace or class is not supported by the simulator; declare it at file scope or inside the kernel
// expect-error: 9:20: 'table' is declared again after a __shared__ variable of that name at file scope; the simulator does not tell them apart: rename one
// expect-error: 13:9: 'table' is declared again after a __shared__ variable of that name at file scope; the simulator does not tell them apart: rename one
// expect-error: 17:7: 'table' is declared again after a __shared__ variable of that name at file scope; the simulator does not tell them apart: rename one
