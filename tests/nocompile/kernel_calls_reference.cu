// expect: device code calls the host function 'reference_add'
void reference_add(const float *a, const float *b, float *out, int n) {
  for (int i = 0; i < n; i++) out[i] = a[i] + b[i];
}

__global__ void add(const float *a, const float *b, float *out, int n) {
  reference_add(a, b, out, n); // error-here
}
