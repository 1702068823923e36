// Included by device_pass.cu: a kernel in a header, whose device branch must be taken.
__global__ void header_kernel(int *out) {
#ifdef __CUDA_ARCH__
  *out = 1; // header_device_branch
#else
  *out = 0; // header_host_branch
#endif
}
