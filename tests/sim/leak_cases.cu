// Leaks of every kind the simulator tracks: one case per kind makes one resource and never
// releases it (issue 24). Usage: leak_cases CASE (memory, stream, event, cublas, curand, nvrtc,
// module, cumemalloc, tail_call, header, after_fault, none; no CASE: every kind, then PASS).
//
// The regions below are marked as a workbook exercise's tasks are, so the simulator's check
// (cusim_task_leaks, what the harness's wb_finish asks before a PASS) takes this file for the
// learner's: each case prints the reason it gives and whether it names the task and the line of
// the call. Built by nvcc too (tests/gpu/validate.sh), where nothing is checked: a GPU releases
// all of it at exit without a word.
// nvcc-flags: -lnvrtc -lcuda -lcublas -lcurand
#include <cublas_v2.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <curand.h>
#include <nvrtc.h>
#include <stdio.h>
#include <string.h>

#include "leak_cases_driver.h"

static const char kernel_source[] = "extern \"C\" __global__ void nothing(int *p) { p[0] = 1; }\n";

__global__ void write_one(int *p) {
  p[0] = 1;
}

static int expect_task = 0, expect_line = 0;
static const char *expect_what = "";

// What the simulator's check says, against the task and line this file expects.
static int report(const char *name) {
#ifdef CUSIM
  char reason[256], hint[256];
  int count = cusim_task_leaks(reason, sizeof reason, hint, sizeof hint);
  printf("%s: %d left: %s\n", name, count, reason);
  if (count) printf("  %s\n", hint);
  char want[256] = "";
  if (expect_line)
    snprintf(want, sizeof want, "task %d: %s on line %d is never ", expect_task, expect_what,
             expect_line);
  char where[64];
  snprintf(where, sizeof where, "leak: made at leak_cases.cu:%d; ", expect_line);
  int ok = expect_line ? count == 1 && strncmp(reason, want, strlen(want)) == 0 &&
                             strncmp(hint, where, strlen(where)) == 0
                       : count == 0;
  printf("%s: %s\n", name, ok ? "check ok" : "check WRONG");
  return ok ? 0 : 1;
#else
  if (expect_line)
    printf("%s: task %d: %s on line %d (a GPU releases it at exit)\n", name, expect_task,
           expect_what, expect_line);
  return 0;
#endif
}

static void expect(int task, const char *what, int line) {
  expect_task = task, expect_what = what, expect_line = line;
}

// An image of kernel_source: the simulator's module, or PTX on a GPU.
static char *compile(void) {
  nvrtcProgram program;
  if (nvrtcCreateProgram(&program, kernel_source, "nothing.cu", 0, NULL, NULL) != NVRTC_SUCCESS)
    return NULL;
  const char *options[] = {"--gpu-architecture=compute_75"};
  size_t size = 0;
  char *image = NULL;
  if (nvrtcCompileProgram(program, 1, options) == NVRTC_SUCCESS &&
      nvrtcGetPTXSize(program, &size) == NVRTC_SUCCESS && (image = new char[size]) != NULL &&
      nvrtcGetPTX(program, image) != NVRTC_SUCCESS) {
    delete[] image;
    image = NULL;
  }
  nvrtcDestroyProgram(&program);
  return image;
}

static int driver_context(void) {
  CUdevice device;
  CUcontext context;
  return cuInit(0) == CUDA_SUCCESS && cuDeviceGet(&device, 0) == CUDA_SUCCESS &&
         cuDevicePrimaryCtxRetain(&context, device) == CUDA_SUCCESS &&
         cuCtxSetCurrent(context) == CUDA_SUCCESS;
}

// ---- task 9: a stream made by a call in tail position ---------------------------------------
static const int make_stream_line = __LINE__ + 2;
__attribute__((noinline)) static cudaError_t make_stream(cudaStream_t *stream) {
  return cudaStreamCreate(stream);
}
// ---- end of task 9 --------------------------------------------------------------------------

static int one_case(const char *c) {
  if (!strcmp(c, "memory")) {
    // ---- task 1: device memory -------------------------------------------------------------
    float *d = NULL;
    expect(1, "device memory allocated", __LINE__ + 1);
    if (cudaMalloc(&d, 1000 * sizeof(float)) != cudaSuccess) return 1;
    // ---- end of task 1 ---------------------------------------------------------------------
  } else if (!strcmp(c, "stream")) {
    // ---- task 2: a stream ------------------------------------------------------------------
    cudaStream_t stream;
    expect(2, "a stream made", __LINE__ + 1);
    if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) return 1;
    // ---- end of task 2 ---------------------------------------------------------------------
  } else if (!strcmp(c, "event")) {
    // ---- task 3: an event ------------------------------------------------------------------
    cudaEvent_t event;
    expect(3, "an event made", __LINE__ + 1);
    if (cudaEventCreate(&event) != cudaSuccess || cudaEventRecord(event, 0) != cudaSuccess)
      return 1;
    // ---- end of task 3 ---------------------------------------------------------------------
  } else if (!strcmp(c, "cublas")) {
    // ---- task 4: a cuBLAS handle -----------------------------------------------------------
    cublasHandle_t handle;
    expect(4, "a cuBLAS handle made", __LINE__ + 1);
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return 1;
    // ---- end of task 4 ---------------------------------------------------------------------
  } else if (!strcmp(c, "curand")) {
    // ---- task 5: a cuRAND generator --------------------------------------------------------
    curandGenerator_t generator;
    expect(5, "a cuRAND generator made", __LINE__ + 1);
    if (curandCreateGenerator(&generator, CURAND_RNG_PSEUDO_PHILOX4_32_10) != CURAND_STATUS_SUCCESS)
      return 1;
    // ---- end of task 5 ---------------------------------------------------------------------
  } else if (!strcmp(c, "nvrtc")) {
    // ---- task 6: an NVRTC program ----------------------------------------------------------
    nvrtcProgram program;
    expect(6, "an NVRTC program made", __LINE__ + 1);
    if (nvrtcCreateProgram(&program, kernel_source, "nothing.cu", 0, NULL, NULL) != NVRTC_SUCCESS)
      return 1;
    // ---- end of task 6 ---------------------------------------------------------------------
  } else if (!strcmp(c, "module")) {
    char *image = compile(); // its program is destroyed: only the module is left
    if (!image || !driver_context()) return 1;
    // ---- task 7: a module ------------------------------------------------------------------
    CUmodule module;
    expect(7, "a module made", __LINE__ + 1);
    if (cuModuleLoadData(&module, image) != CUDA_SUCCESS) return 1;
    // ---- end of task 7 ---------------------------------------------------------------------
    delete[] image;
  } else if (!strcmp(c, "cumemalloc")) {
    if (!driver_context()) return 1;
    // ---- task 8: device memory from the driver API -----------------------------------------
    CUdeviceptr d;
    expect(8, "device memory allocated", __LINE__ + 1);
    if (cuMemAlloc(&d, 4096) != CUDA_SUCCESS) return 1;
    // ---- end of task 8 ---------------------------------------------------------------------
  } else if (!strcmp(c, "tail_call")) {
    // The call is the function's last: the line named is still its own, not this one.
    cudaStream_t stream;
    expect(9, "a stream made", make_stream_line);
    if (make_stream(&stream) != cudaSuccess) return 1;
  } else if (!strcmp(c, "header")) {
    // A stream the program's own code keeps (a file without task regions): never the learner's.
    if (driver_stream() == NULL) return 1;
  } else if (!strcmp(c, "after_fault")) {
    // A failed kernel leaves every call failing (the sticky error): the leaks say nothing.
    int host = 0, *d = NULL;
    if (cudaMalloc(&d, sizeof(int)) != cudaSuccess) return 1;
    write_one<<<1, 1>>>(&host);
    printf("after_fault: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  } else if (!strcmp(c, "none")) {
    // Each kind made and released: nothing is left.
    float *d = NULL;
    cudaStream_t stream;
    cudaEvent_t event;
    cublasHandle_t handle;
    curandGenerator_t generator;
    nvrtcProgram program;
    if (cudaMalloc(&d, 64) != cudaSuccess || cudaFree(d) != cudaSuccess ||
        cudaStreamCreate(&stream) != cudaSuccess || cudaStreamDestroy(stream) != cudaSuccess ||
        cudaEventCreateWithFlags(&event, cudaEventDisableTiming) != cudaSuccess ||
        cudaEventDestroy(event) != cudaSuccess || cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS ||
        cublasDestroy(handle) != CUBLAS_STATUS_SUCCESS ||
        curandCreateGenerator(&generator, CURAND_RNG_PSEUDO_DEFAULT) != CURAND_STATUS_SUCCESS ||
        curandDestroyGenerator(generator) != CURAND_STATUS_SUCCESS ||
        nvrtcCreateProgram(&program, kernel_source, "x.cu", 0, NULL, NULL) != NVRTC_SUCCESS ||
        nvrtcDestroyProgram(&program) != NVRTC_SUCCESS)
      return 1;
    char *image = compile();
    CUmodule module;
    CUdeviceptr p;
    if (!image || !driver_context() || cuModuleLoadData(&module, image) != CUDA_SUCCESS ||
        cuModuleUnload(module) != CUDA_SUCCESS || cuMemAlloc(&p, 64) != CUDA_SUCCESS ||
        cuMemFree(p) != CUDA_SUCCESS)
      return 1;
    delete[] image;
  } else {
    printf("unknown case '%s'\n", c);
    return 2;
  }
  return report(c);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0); // lines in order with the simulator's on stderr
  if (argc > 1) return one_case(argv[1]);
  // Every kind, as one program: on a GPU each call must work (nvcc builds this, a GPU runs it).
  const char *kinds[] = {"memory", "stream", "event", "cublas", "curand", "nvrtc", "module"};
  float *d = NULL;
  cudaStream_t stream;
  cudaEvent_t event;
  cublasHandle_t handle;
  curandGenerator_t generator;
  nvrtcProgram program;
  CUmodule module;
  char *image = compile();
  int made[7] = {
      cudaMalloc(&d, 256) == cudaSuccess,
      cudaStreamCreate(&stream) == cudaSuccess,
      cudaEventCreate(&event) == cudaSuccess,
      cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS,
      curandCreateGenerator(&generator, CURAND_RNG_PSEUDO_DEFAULT) == CURAND_STATUS_SUCCESS,
      nvrtcCreateProgram(&program, kernel_source, "y.cu", 0, NULL, NULL) == NVRTC_SUCCESS,
      image && driver_context() && cuModuleLoadData(&module, image) == CUDA_SUCCESS,
  };
  int all = 1;
  for (int i = 0; i < 7; ++i) {
    if (!made[i]) printf("FAIL: could not make the %s\n", kinds[i]);
    all &= made[i];
  }
  delete[] image;
  printf("%s\n", all ? "one of each kind made and kept: PASS" : "FAIL");
  return all ? 0 : 1;
}
