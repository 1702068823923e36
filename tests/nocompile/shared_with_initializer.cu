// expect: __shared__ variable 'total' has an initializer
__global__ void sum(const float *in, float *out) {
  __shared__ float total = 0.0f; // error-here
  total += in[threadIdx.x];
  *out = total;
}
