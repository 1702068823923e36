// expect: device code calls the host function 'host_scale'
float host_scale(float x);

__global__ void scale(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = host_scale(data[i]); // error-here
}
