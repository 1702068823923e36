// Libraries and run-time compilation together, as a course's sample would write them: a SAXPY
// kernel compiled from a string with NVRTC (the factor baked in with -D), loaded and launched
// through the driver API on memory from the runtime API, then cuBLAS: the same SAXPY, a dot
// product and a matrix product, all checked on the CPU. Link with the libraries for nvcc.
// nvcc-flags: -lnvrtc -lcuda -lcublas
#include <cublas_v2.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <math.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>

#define CUDA_CHECK(call)                                                                           \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));                    \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

#define CU_CHECK(call)                                                                             \
  do {                                                                                             \
    CUresult res_ = (call);                                                                        \
    if (res_ != CUDA_SUCCESS) {                                                                    \
      const char *msg_ = "unknown";                                                                \
      cuGetErrorName(res_, &msg_);                                                                 \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, msg_);                                        \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

#define NVRTC_CHECK(call)                                                                          \
  do {                                                                                             \
    nvrtcResult res_ = (call);                                                                     \
    if (res_ != NVRTC_SUCCESS) {                                                                   \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, nvrtcGetErrorString(res_));                   \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

#define CUBLAS_CHECK(call)                                                                         \
  do {                                                                                             \
    cublasStatus_t st_ = (call);                                                                   \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                                            \
      printf("FAIL %s:%d: cuBLAS status %d\n", __FILE__, __LINE__, (int)st_);                      \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

static const char *saxpy_source = "extern \"C\" __global__\n"
                                  "void saxpy(const float *x, float *y, int n) {\n"
                                  "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                  "  if (i < n) y[i] = FACTOR * x[i] + y[i];\n"
                                  "}\n";

int main(void) {
  const int n = 1 << 16;
  const float factor = 2.5f;

  // The driver API shares the runtime's primary context.
  CUdevice device;
  CUcontext context;
  CU_CHECK(cuInit(0));
  CU_CHECK(cuDeviceGet(&device, 0));
  CU_CHECK(cuDevicePrimaryCtxRetain(&context, device));
  CU_CHECK(cuCtxSetCurrent(context));
  int major = 0, minor = 0;
  CU_CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device));
  CU_CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device));

  // Compile the kernel for this device, with the factor as a macro.
  char arch[64], define[64];
  snprintf(arch, sizeof arch, "--gpu-architecture=compute_%d%d", major, minor);
  snprintf(define, sizeof define, "-DFACTOR=%.9gf", factor);
  const char *options[] = {arch, define};
  nvrtcProgram program;
  NVRTC_CHECK(nvrtcCreateProgram(&program, saxpy_source, "saxpy.cu", 0, NULL, NULL));
  nvrtcResult compiled = nvrtcCompileProgram(program, 2, options);
  size_t log_size = 0;
  NVRTC_CHECK(nvrtcGetProgramLogSize(program, &log_size));
  if (log_size > 1) {
    char *log = (char *)malloc(log_size);
    NVRTC_CHECK(nvrtcGetProgramLog(program, log));
    printf("compile log:\n%s\n", log);
    free(log);
  }
  NVRTC_CHECK(compiled);
  size_t ptx_size = 0;
  NVRTC_CHECK(nvrtcGetPTXSize(program, &ptx_size));
  char *ptx = (char *)malloc(ptx_size);
  NVRTC_CHECK(nvrtcGetPTX(program, ptx));
  NVRTC_CHECK(nvrtcDestroyProgram(&program));

  CUmodule module;
  CUfunction saxpy;
  CU_CHECK(cuModuleLoadDataEx(&module, ptx, 0, NULL, NULL));
  CU_CHECK(cuModuleGetFunction(&saxpy, module, "saxpy"));
  free(ptx);

  float *x = (float *)malloc(n * sizeof(float));
  float *y = (float *)malloc(n * sizeof(float));
  float *out = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    x[i] = (float)(i % 100) / 10.0f;
    y[i] = (float)(i % 7) - 3.0f;
  }
  float *d_x, *d_y, *d_y2;
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_y, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_y2, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_x, x, n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_y, y, n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_y2, y, n * sizeof(float), cudaMemcpyHostToDevice));

  // The run-time compiled kernel: y = FACTOR x + y.
  int count = n;
  void *args[] = {&d_x, &d_y, &count};
  CU_CHECK(cuLaunchKernel(saxpy, (n + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
  CU_CHECK(cuCtxSynchronize());
  CUDA_CHECK(cudaMemcpy(out, d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    if (fabsf(out[i] - (factor * x[i] + y[i])) > 1e-5f * (1.0f + fabsf(out[i]))) ++wrong;
  }
  printf("NVRTC saxpy: %d of %d wrong\n", wrong, n);

  // cuBLAS: the same SAXPY on the second copy of y, then the dot product of the two results.
  cublasHandle_t handle;
  CUBLAS_CHECK(cublasCreate(&handle));
  CUBLAS_CHECK(cublasSaxpy(handle, n, &factor, d_x, 1, d_y2, 1));
  float dot = 0.0f;
  CUBLAS_CHECK(cublasSdot(handle, n, d_y, 1, d_y2, 1, &dot));
  double want_dot = 0.0;
  for (int i = 0; i < n; ++i) want_dot += (double)out[i] * out[i];
  int dot_ok = fabs(dot - want_dot) <= 1e-4 * want_dot;
  printf("cuBLAS dot of the two results: %s\n", dot_ok ? "matches" : "differs");

  // A 3 x 2 times 2 x 4 product in column-major order: C = A B.
  const int m = 3, k = 2, cols = 4;
  float a[] = {1, 2, 3, 4, 5, 6};        // columns (1 2 3) and (4 5 6)
  float b[] = {1, 0, 0, 1, 1, 1, 2, -1}; // columns (1 0) (0 1) (1 1) (2 -1)
  float c[12], want_c[12];
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < m; ++i) want_c[i + j * m] = a[i] * b[j * k] + a[i + m] * b[j * k + 1];
  float *d_a, *d_b, *d_c;
  CUDA_CHECK(cudaMalloc(&d_a, sizeof a));
  CUDA_CHECK(cudaMalloc(&d_b, sizeof b));
  CUDA_CHECK(cudaMalloc(&d_c, sizeof c));
  CUDA_CHECK(cudaMemcpy(d_a, a, sizeof a, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_b, b, sizeof b, cudaMemcpyHostToDevice));
  const float one = 1.0f, zero = 0.0f;
  CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, cols, k, &one, d_a, m, d_b, k,
                           &zero, d_c, m));
  CUDA_CHECK(cudaMemcpy(c, d_c, sizeof c, cudaMemcpyDeviceToHost));
  int gemm_wrong = 0;
  for (int i = 0; i < m * cols; ++i) gemm_wrong += c[i] != want_c[i];
  printf("cuBLAS sgemm: %d of %d wrong\n", gemm_wrong, m * cols);

  CUBLAS_CHECK(cublasDestroy(handle));
  CU_CHECK(cuModuleUnload(module));
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  CUDA_CHECK(cudaFree(d_y2));
  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_b));
  CUDA_CHECK(cudaFree(d_c));
  CU_CHECK(cuDevicePrimaryCtxRelease(device));
  free(x);
  free(y);
  free(out);
  int pass = wrong == 0 && dot_ok && gemm_wrong == 0;
  printf("%s\n", pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}
