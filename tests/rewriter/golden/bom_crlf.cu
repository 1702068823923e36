// A byte order mark is dropped.
__global__ void k(int x) {
  __shared__ int s;
}
void host() {
  k<<<1,
      1>>>(0);
}
