// expect: 'child' is launched from device code: dynamic parallelism, which nvcc builds only
__global__ void child(int *x) {
  x[threadIdx.x] += 1;
}

__global__ void parent(int *x) {
  if (threadIdx.x == 0) {
    child<<<1, 4>>>(x); // error-here
  }
}
