// expect: host code calls the __device__ function 'twice'
#include <cstdio>
__device__ int twice(int x) {
  return 2 * x;
}

int main() {
  printf("%d\n", twice(21)); // error-here
  return 0;
}
