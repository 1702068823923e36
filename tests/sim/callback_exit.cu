// A host function that ends the program with exit() while the host spins (issue 18): the
// progress thread runs it, and exit() must not wait for the progress thread itself.
#include <cstdio>
#include <cstdlib>

static void CUDART_CB finish(void *) {
  std::printf("the host function calls exit(3)\n");
  std::fflush(stdout);
  std::exit(3);
}

__global__ void fill(int *p) {
  p[threadIdx.x] = 1;
}

int main() {
  int *d = NULL;
  cudaMalloc((void **)&d, 32 * sizeof(int));
  cudaStream_t s;
  cudaStreamCreate(&s);
  fill<<<1, 32, 0, s>>>(d);
  cudaLaunchHostFunc(s, finish, NULL);
  volatile int spin = 1; // a loop with a side effect: the compiler may not drop it
  while (spin) {
  }
  return 0;
}
