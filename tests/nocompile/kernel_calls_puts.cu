// expect: device code calls the host function 'puts'
#include <cstdio>
__global__ void hello() {
  puts("hello from the GPU"); // error-here
}
