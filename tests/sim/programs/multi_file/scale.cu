// A __device__ function in its own file, called from kernels.cu: separate compilation (-rdc=true
// -dc, then -dlink), as nvcc_sim_driver_test.sh builds it.
__device__ float scale(float x, float factor) {
  return x * factor;
}
