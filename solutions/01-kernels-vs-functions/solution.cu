/* Lesson 01: kernels vs functions.
 *
 * Three kinds of function live in a .cu file:
 *   - a host function (no qualifier, or __host__) runs on the CPU, like any C function;
 *   - a __device__ function runs on the GPU and is called from GPU code; it may return a value;
 *   - a __global__ function, a KERNEL, is launched from the CPU and runs on the GPU once per
 *     thread. It cannot return anything: the only way it gives results back is by writing memory.
 *
 * Your three tasks are marked below. Check your work with:  ./workbook check 01
 * (or: ctest --test-dir build -L lesson01 --output-on-failure).
 */
#include "lesson.h"

/* A __device__ function: GPU code calls it like an ordinary C function. */
__device__ float square(float x) {
  // ---- task 1: a __device__ function returns a value -------------------------------------
  return x * x;
  // ---- end of task 1 ---------------------------------------------------------------------
}

/* A kernel: every thread of the launch runs this body once, with its own index. */
__global__ void squares_kernel(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; /* which element is mine (lesson 02) */
  if (i < n) { /* the last block may run past the end (lesson 03) */
    // ---- task 2: a kernel returns nothing, it writes memory ------------------------------
    out[i] = square((float)i);
    // ---- end of task 2 -------------------------------------------------------------------
  }
}

/* A host function that launches the kernel. */
cudaError_t squares_on_device(float *d_out, int n, int threads_per_block) {
  int blocks = (n + threads_per_block - 1) / threads_per_block;
  squares_kernel<<<blocks, threads_per_block>>>(d_out, n);
  // ---- task 3: a launch does not wait and does not report ----------------------------------
  cudaError_t launch_status = cudaGetLastError();
  if (launch_status != cudaSuccess) return launch_status;
  return cudaDeviceSynchronize();
  // ---- end of task 3 -----------------------------------------------------------------------
}
