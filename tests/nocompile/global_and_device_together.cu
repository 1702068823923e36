// expect: '__device__' cannot be used together with __global__
__device__ __global__ void both(float *data) { // error-here
  data[0] = 1;
}
