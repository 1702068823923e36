// The compiler must report an error in a rewritten file at the learner's line.
__global__ void kernel(float *x, int n) {
  __shared__ float tile[32]
      [33];
  x[0] = tile[0][0] + n;
}
void host(float *x, int n) {
  kernel<<<1,
           32>>>(x,
                 n);
  this_is_not_declared(x);
}
// expect-compile-error: 11
