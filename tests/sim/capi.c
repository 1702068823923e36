/* The runtime API from C11: the header compiles as C and the calls link. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

/* The simulator names itself and has no memory clock (0); a GPU (an H200 under tests/gpu) has both.
 */
#ifdef CUSIM
#define CAPI_ON_SIMULATOR 1
#else
#define CAPI_ON_SIMULATOR 0
#endif
static int is_simulator(const char *name) {
  return !CAPI_ON_SIMULATOR || strcmp(name, "CPU simulator") == 0;
}

int capi_checks(void) {
  int failures = 0;
  int count = 0, value = -1, version = 0;
  struct cudaDeviceProp prop;
  float *d = NULL;
  float h[16];
  dim3 grid = {2, 1, 1};
  cudaStream_t s = NULL;
  cudaEvent_t e0 = NULL, e1 = NULL;
  float ms = -1.0f;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count != 1)
    failures++, printf("C: device count\n");
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess || !is_simulator(prop.name) ||
      prop.maxThreadsPerBlock != 1024 || prop.warpSize != 32 || prop.sharedMemPerBlock != 49152)
    failures++, printf("C: properties\n");
  if (cudaDeviceGetAttribute(&value, cudaDevAttrMemoryClockRate, 0) != cudaSuccess ||
      (CAPI_ON_SIMULATOR && value != 0))
    failures++, printf("C: memory clock attribute\n");
  if (cudaRuntimeGetVersion(&version) != cudaSuccess || version != 13000)
    failures++, printf("C: version\n");
  if (cudaMalloc((void **)&d, sizeof h) != cudaSuccess) failures++, printf("C: malloc\n");
  memset(h, 0, sizeof h);
  if (cudaMemset(d, 0, sizeof h) != cudaSuccess) failures++, printf("C: memset\n");
  if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess)
    failures++, printf("C: memcpy\n");
  if (cudaStreamCreate(&s) != cudaSuccess || cudaEventCreate(&e0) != cudaSuccess ||
      cudaEventCreate(&e1) != cudaSuccess)
    failures++, printf("C: stream/event create\n");
  cudaEventRecord(e0, s);
  cudaMemcpyAsync(d, h, sizeof h, cudaMemcpyHostToDevice, s);
  cudaEventRecord(e1, s);
  if (cudaEventSynchronize(e1) != cudaSuccess || cudaEventElapsedTime(&ms, e0, e1) != cudaSuccess ||
      ms < 0.0f)
    failures++, printf("C: event timing\n");
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaStreamDestroy(s);
  cudaFree(d);
  if (strcmp(cudaGetErrorString(cudaErrorInvalidConfiguration), "invalid configuration argument") !=
          0 ||
      strcmp(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress") != 0 ||
      cudaErrorIllegalAddress != 700 || cudaErrorAssert != 710)
    failures++, printf("C: error names\n");
  (void)grid;
  return failures;
}
