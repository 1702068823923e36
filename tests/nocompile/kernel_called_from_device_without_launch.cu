// expect: 'child' is a __global__ function: launch it with <<<grid, block>>>
__global__ void child(int *out) {
  out[threadIdx.x] = 1;
}

__global__ void parent(int *out) {
  child(out); // error-here
}
