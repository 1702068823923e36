// expect: __global__ function 'count' must have a void return type
__global__ int count(const int *data, int n) { // error-here
  return n > 0 ? data[0] : 0;
}
