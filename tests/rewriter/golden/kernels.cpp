#line 1 "kernels.cu"
// __global__ functions that are fine: no reference parameters at the top level.
template <typename T> struct Box {};
__global__ void pointers(float *out, const float *__restrict__ in, int n) {}
template <typename T> __global__ void templated(Box<T &> box, T *x) {}
__global__ void defaults(int flags = 1 & 3, bool both = true && false) {}
__global__ void callback(void (*function)(int &), int (*array)[4]) {}
extern "C" __global__ void __launch_bounds__(256, 2) bounded(float *x) {}
__device__ void device_reference(float &x) {}
void host_reference(float &x, int &&y) {}
__global__ static void prototype(const float *, int);
