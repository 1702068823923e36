__global__ void k() {
  extern __shared__ float ok[], bad[4];
  __shared__ int x = 0;
  __shared__ int y{0};
  __shared__ Pair<int, int> fine[2];
  extern __shared__ float dynamic[64];
  extern __shared__ int single;
  __shared__ alignas(16) alignas(8) float aligned[4];
}
// expect-error: 2:33: extern __shared__ variable 'bad' must be an array of unknown size, as in 'extern __shared__ float name[];'
// expect-error: 3:20: __shared__ variable 'x' has an initializer; CUDA does not allow initializing __shared__ variables (nvcc rejects this too)
// expect-error: 4:19: __shared__ variable 'y' has an initializer; CUDA does not allow initializing __shared__ variables (nvcc rejects this too)
// expect-error: 6:27: extern __shared__ variable 'dynamic' must be an array of unknown size, as in 'extern __shared__ float name[];'
// expect-error: 7:25: extern __shared__ variable 'single' must be an array of unknown size, as in 'extern __shared__ float name[];'
// expect-error: 8:26: this alignas in a __shared__ declaration is not supported by the simulator (one alignas(...) before the name is); use __align__(n)
