// A byte order mark is dropped.
__global__ void k(int x) {}
__global__ void host() {
  k<<<1,
      1>>>(0);
  __shared__ int x;
}
