// expect: __shared__ variables belong in device code, not in a host function
void host_sum(const float *in, float *out) {
  __shared__ float tile[256]; // error-here
  tile[0] = in[0];
  *out = tile[0];
}
