// expect: host code calls the __device__ function 'square'
__device__ float square(float x) {
  return x * x;
}

void squares_on_host(float *out, int n) {
  for (int i = 0; i < n; i++) out[i] = square((float)i); // error-here
}
