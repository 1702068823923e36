// expect: __global__ function 'square' must have a void return type
__global__ float square(float x) { // error-here
  return x * x;
}
