// expect: 'fill' is a __global__ function: launch it with <<<grid, block>>>
__global__ void fill(float *out, float value) {
  out[threadIdx.x] = value;
}

void fill_on_device(float *d_out) {
  fill(d_out, 1.0f); // error-here
}
