// expect: __global__ function 'first' must have a void return type
__global__ void *first(float *data) { // error-here
  return data;
}
