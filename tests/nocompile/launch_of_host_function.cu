// expect: 'fill_host' is not a __global__ function; only kernels are launched with <<< >>>
void fill_host(float *out, int n) {
  for (int i = 0; i < n; i++) out[i] = 0;
}

void run(float *d_out, int n) {
  fill_host<<<1, 32>>>(d_out, n); // error-here
}
