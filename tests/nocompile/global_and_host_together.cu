// expect: '__host__' cannot be used together with __global__
__global__ __host__ void both(float *data) { // error-here
  data[0] = 1;
}
