/* Lesson 03: hello, copy.
 *
 * The Python original's first kernel copied one array into another, one thread per element, and
 * launched it as foo[1, len(data)]: ONE block of len(data) threads. Here is the same in CUDA C,
 * then the launch that works for any size: many blocks of a fixed size, and a bounds check.
 *
 * The output array is allocated (cudaMalloc) before the launch, at its full length: a kernel
 * cannot grow an array or append to a list; each thread can only write the element that is its
 * own.
 *
 * Your three tasks are marked below. Check your work with:  ./workbook check 03
 * (or: ctest --test-dir build -L lesson03 --output-on-failure).
 */
#include "lesson.h"

__global__ void copy_kernel(const float *in, float *out, int n) {
  // ---- task 1: one element per thread, and not one past the end ------------------------------
  // TODO: work out this thread's element i from blockIdx.x, blockDim.x and threadIdx.x (lesson
  //       02), then copy in[i] to out[i], but only if i < n: the last block of a launch usually
  //       has threads with no element, and they must not touch memory.
  (void)in;
  (void)out;
  (void)n;
  // ---- end of task 1 -------------------------------------------------------------------------
}

/* After a launch: was it accepted, and did the kernel run to the end? (lesson 01) While the
 * driver times the kernel, wb_timing() is true and its timing events do the waiting. */
static cudaError_t launch_result(void) {
  cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess || wb_timing()) return status;
  return cudaDeviceSynchronize();
}

cudaError_t copy_one_block(const float *d_in, float *d_out, int n) {
  // ---- task 2: one block of n threads --------------------------------------------------------
  // TODO: launch copy_kernel with ONE block of n threads, like the Python original's
  //       foo[1, len(data)]. Do not guard against big n: the driver wants to see what a launch
  //       of more threads than a block can hold reports.
  (void)d_in;
  (void)d_out;
  (void)n;
  // ---- end of task 2 -------------------------------------------------------------------------
  return launch_result();
}

cudaError_t copy_many_blocks(const float *d_in, float *d_out, int n) {
  // ---- task 3: enough blocks of COPY_BLOCK_SIZE threads ---------------------------------------
  // Constant expressions that take minutes to evaluate: each within the compiler's per-loop
  // limit, fifty of them. The build must stop at --build-timeout, as the student's timeout.
  constexpr auto step = [](unsigned long seed) {
    unsigned long sum = seed;
    for (unsigned long i = 0; i < 1000; i++)
      for (unsigned long j = 0; j < 2000; j++) sum = sum * 31u + (i ^ j);
    return sum;
  };
  static_assert(step(1) != 0, "never");
  static_assert(step(2) != 0, "never");
  static_assert(step(3) != 0, "never");
  static_assert(step(4) != 0, "never");
  static_assert(step(5) != 0, "never");
  static_assert(step(6) != 0, "never");
  static_assert(step(7) != 0, "never");
  static_assert(step(8) != 0, "never");
  static_assert(step(9) != 0, "never");
  static_assert(step(10) != 0, "never");
  static_assert(step(11) != 0, "never");
  static_assert(step(12) != 0, "never");
  static_assert(step(13) != 0, "never");
  static_assert(step(14) != 0, "never");
  static_assert(step(15) != 0, "never");
  static_assert(step(16) != 0, "never");
  static_assert(step(17) != 0, "never");
  static_assert(step(18) != 0, "never");
  static_assert(step(19) != 0, "never");
  static_assert(step(20) != 0, "never");
  static_assert(step(21) != 0, "never");
  static_assert(step(22) != 0, "never");
  static_assert(step(23) != 0, "never");
  static_assert(step(24) != 0, "never");
  static_assert(step(25) != 0, "never");
  static_assert(step(26) != 0, "never");
  static_assert(step(27) != 0, "never");
  static_assert(step(28) != 0, "never");
  static_assert(step(29) != 0, "never");
  static_assert(step(30) != 0, "never");
  static_assert(step(31) != 0, "never");
  static_assert(step(32) != 0, "never");
  static_assert(step(33) != 0, "never");
  static_assert(step(34) != 0, "never");
  static_assert(step(35) != 0, "never");
  static_assert(step(36) != 0, "never");
  static_assert(step(37) != 0, "never");
  static_assert(step(38) != 0, "never");
  static_assert(step(39) != 0, "never");
  static_assert(step(40) != 0, "never");
  static_assert(step(41) != 0, "never");
  static_assert(step(42) != 0, "never");
  static_assert(step(43) != 0, "never");
  static_assert(step(44) != 0, "never");
  static_assert(step(45) != 0, "never");
  static_assert(step(46) != 0, "never");
  static_assert(step(47) != 0, "never");
  static_assert(step(48) != 0, "never");
  static_assert(step(49) != 0, "never");
  static_assert(step(50) != 0, "never");
  (void)d_in;
  (void)d_out;
  (void)n;
  // ---- end of task 3 -------------------------------------------------------------------------
  return launch_result();
}
