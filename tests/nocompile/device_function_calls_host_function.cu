// expect: device code calls the host function 'clamp_host'
float clamp_host(float x) {
  return x < 0 ? 0 : x;
}

__device__ float relu(float x) {
  return clamp_host(x); // error-here
}

__global__ void apply(float *data) {
  data[threadIdx.x] = relu(data[threadIdx.x]);
}
