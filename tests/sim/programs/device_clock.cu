// clock() in device code reads the GPU's cycle counter (the simulator's, not the C library's
// clock(), which is a system call and counts CPU time in microseconds): 4096 threads each wait
// 20000 cycles, as NVIDIA's samples' clockBlock kernels do, in well under a second; the counter
// moves between two reads. In host code clock() is still the C library's, and a device variable
// named clock is the program's own. Prints "PASS device_clock" or what is wrong.
#include <cstdio>
#include <ctime>

#define THREADS 256
#define BLOCKS 16
#define WAIT 20000

__global__ void wait_cycles(clock_t cycles, int *moved) {
  unsigned int start = (unsigned int)clock();
  clock_t waited = 0;
  while (waited < cycles) waited = (clock_t)((unsigned int)clock() - start);
  int clock = waited > 0; // a variable named clock: the program's own
  if (clock) atomicAdd(moved, 1);
}

int main(void) {
  int *moved, host_moved = 0;
  clock_t host_start = clock(); // the C library's
  if (cudaMalloc((void **)&moved, sizeof(int)) != cudaSuccess) {
    printf("FAIL device_clock: cudaMalloc\n");
    return 1;
  }
  cudaMemset(moved, 0, sizeof(int));
  wait_cycles<<<BLOCKS, THREADS>>>((clock_t)WAIT, moved);
  cudaError_t e = cudaMemcpy(&host_moved, moved, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(moved);
  if (e != cudaSuccess || host_moved != BLOCKS * THREADS || clock() < host_start) {
    printf("FAIL device_clock: %s, the counter moved in %d of %d threads\n", cudaGetErrorName(e),
           host_moved, BLOCKS * THREADS);
    return 1;
  }
  printf("PASS device_clock\n");
  return 0;
}
