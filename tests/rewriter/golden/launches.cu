// Kernel launches of every shape the contract covers.
__global__ void add(float *out, const float *a, const float *b, int n) {}
__global__ void empty() {}

void host(float *out, float *a, float *b, int n, cudaStream_t stream) {
  add<<<(n + 255) / 256, 256>>>(out, a, b, n);
  add<<<dim3(n / 256 + 1), dim3(256), 0, stream>>>(out, a, b, n);
  add<<<1, 1, 64 * sizeof(float)>>>(out, a, b, n);
  empty<<<1, 1>>>();
  empty<<<1, 1>>>( /* nothing */ );
  add <<< 2 , 32 >>> ( out , a , b , n ) ;
  add<<<1, 1>>>(0, NULL, 0L, 0UL);
  add<<<1, 1>>>(0 /* null */, NULL + 0, (0), 00);
  add<<<1, 1>>>(f(0, 1), a[0], {0}, [=](int i) { return i, 0; }(0));
  if (n) add<<<1, 1>>>(out, a, b, n); else empty<<<1, 1>>>();
  for (int i = 0; i < 3; i++)
    add<<<i + 1, 32>>>(out, a, b, n), empty<<<1,1>>>();
  cudaStream_t streams[2];
  empty<<<1, 1, 0, streams[n % 2]>>>();
  add<<<1, (n > 1 ? 2 : 1)>>>(out, a, b, n >> 1);
}
void through_pointers(float *out, float *a, float *b, int n) {
  void (*kernel)(float *, const float *, const float *, int) = add;
  (*kernel)<<<1, 32>>>(out, a, b, n);
  kernel<<<1, 32>>>(out, a, b, n);
  (kernel)<<<1, 32>>>(out, a, b, n);
}
// Spaced as Rodinia's particlefilter writes it; nvcc 13 takes "<< <" and ">> >" (not "< <<").
void spaced(float *out, float *a, float *b, int n) {
  add << < 1, 32 >> > (out, a, b, n);
  add<< <1, 32>>>(out, a, b, n >> 1);
}
