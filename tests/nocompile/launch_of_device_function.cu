// expect: 'square' is not a __global__ function; only kernels are launched with <<< >>>
__device__ float square(float x) {
  return x * x;
}

void run() {
  square<<<1, 32>>>(2.0f); // error-here
}
