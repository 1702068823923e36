// A kernel taking a reference compiles with nvcc but reads host memory on a GPU.
__global__ void scale(float &factor, float *x) {}
// expect-error: 2:29: kernel parameter 'factor' is a reference; __global__ functions take their parameters by value (nvcc accepts this, but the kernel would read host memory on a GPU)
