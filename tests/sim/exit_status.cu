// A program that ignores its kernels' errors and exits 0 (as many benchmark programs do): where
// the memory checker stopped a kernel, the process exits non-zero with one line saying why, as
// compute-sanitizer --error-exitcode does (issue 27, runtime/instrument.cpp). Usage: exit_status
// CASE. racy: a race, the status ignored, return 0; clean: no error, return 0; fails: the race,
// the program's own status 3 (kept, with a note); own: the race, but the program declares its
// exit status its verdict (as the workbook's harness does), return 0. nvcc builds it too.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void count(unsigned *n, bool racy) {
  if (racy)
    *n += 1; // every thread reads and writes *n with no atomic: a data race
  else
    atomicAdd(n, 1u);
}

int main(int argc, char **argv) {
  const char *c = argc > 1 ? argv[1] : "";
  bool racy = std::strcmp(c, "clean") != 0;
#ifdef CUSIM
  if (!std::strcmp(c, "own")) cusim_exit_status_is_the_verdict();
#endif
  unsigned *n;
  cudaMallocManaged(&n, sizeof *n);
  *n = 0;
  count<<<1, 64>>>(n, racy);
  cudaDeviceSynchronize(); // its status ignored
  std::printf("%s: count %u\n", c, *n);
  cudaFree(n);
  return !std::strcmp(c, "fails") ? 3 : 0;
}
