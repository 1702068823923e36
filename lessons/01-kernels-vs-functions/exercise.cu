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
  // TODO: return x squared. (A __device__ function is allowed to return a value; only kernels
  //       are not.)
  (void)x;
  return 0.0f;
  // ---- end of task 1 ---------------------------------------------------------------------
}

/* A kernel: every thread of the launch runs this body once, with its own index. */
__global__ void squares_kernel(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; /* which element is mine (lesson 02) */
  if (i < n) { /* the last block may run past the end (lesson 03) */
    // ---- task 2: a kernel returns nothing, it writes memory ------------------------------
    // TODO: store square(i) in out[i]. A kernel's return type is always void: whatever it
    //       computes is lost unless it writes it somewhere the host can copy back.
    (void)out;
    // ---- end of task 2 -------------------------------------------------------------------
  }
}

/* A host function that launches the kernel. */
cudaError_t squares_on_device(float *d_out, int n, int threads_per_block) {
  int blocks = (n + threads_per_block - 1) / threads_per_block;
  squares_kernel<<<blocks, threads_per_block>>>(d_out, n);
  // ---- task 3: a launch does not wait and does not report ----------------------------------
  // TODO: the launch above returned immediately, with no status. Ask cudaGetLastError() whether
  //       the launch was accepted (a bad configuration is reported there), and return that error
  //       if it is not cudaSuccess. Then wait for the kernel with cudaDeviceSynchronize() and
  //       return what it says (errors that happen while the kernel runs are reported there).
  return cudaSuccess;
  // ---- end of task 3 -----------------------------------------------------------------------
}
