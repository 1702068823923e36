// expect: __syncthreads\(\) is a device function; host code cannot call it
void host_step(float *data, int n) {
  for (int i = 0; i < n; i++) data[i] *= 2;
  __syncthreads(); // error-here
}
