/* Lesson 05: implicit vs explicit memory.
 *
 * The same small computation, out[i] = in[i] + 2, with the data brought to the GPU and back in
 * seven different ways (the README's table numbers the ways). The kernel is given; your seven
 * tasks are the memory calls around it:
 *
 *   task 1  managed memory (cudaMallocManaged): one pointer for both sides, the driver migrates
 *           pages on demand, the way Numba copies NumPy arrays for you without being asked;
 *   task 2  run on memory both sides can reach (managed or mapped), and wait for the kernel;
 *   task 3  managed memory, but moved ahead of time with cudaMemPrefetchAsync;
 *   task 4  explicit copies with cudaMemcpy (cuda.to_device and copy_to_host in Numba);
 *   task 5  pinned host memory from cudaMallocHost (cuda.pinned_array);
 *   task 6  cudaHostRegister, which pins an array that already exists (cuda.pinned);
 *   task 7  mapped, zero-copy host memory the kernel reads over the bus (cuda.mapped_array).
 *
 * Check your work with:  ./workbook check 05
 * (or: ctest --test-dir build -L lesson05 --output-on-failure).
 */
#include "lesson.h"

enum { THREADS_PER_BLOCK = 256 };

__global__ void add_two_kernel(const double *in, double *out, int n) {
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = in[i] + 2.0;
}

cudaError_t add_two_launch(const double *in, double *out, int n, cudaStream_t stream) {
  int blocks = (n + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK;
  add_two_kernel<<<blocks, THREADS_PER_BLOCK, 0, stream>>>(in, out, n);
  return cudaGetLastError();
}

/* Ways 1 and 2. */
cudaError_t managed_alloc(double **in, double **out, size_t n) {
  // ---- task 1: managed memory ---------------------------------------------------------------
  // TODO: allocate *in and *out, n * sizeof(double) bytes each, with cudaMallocManaged.
  //       Return the first error; the driver frees them with cudaFree.
  (void)n;
  *in = NULL;
  *out = NULL;
  return cudaSuccess;
  // ---- end of task 1 ------------------------------------------------------------------------
}

/* Ways 1 and 7: memory the kernel can use where it is. */
cudaError_t run_in_place(const double *in, double *out, int n) {
  // ---- task 2: no copies, but still wait ----------------------------------------------------
  // TODO: launch with add_two_launch(in, out, n, 0) and return its error if it has one. Then
  //       wait with cudaDeviceSynchronize() and return what it says: nothing copies the result
  //       back, so nothing else makes the host wait for the kernel before reading out.
  (void)in;
  (void)out;
  (void)n;
  return cudaSuccess;
  // ---- end of task 2 ------------------------------------------------------------------------
}

/* Way 2: managed memory moved ahead of time instead of page by page. */
cudaError_t run_managed_prefetched(const double *in, double *out, int n) {
  int device = 0;
  cudaError_t status = cudaGetDevice(&device);
  if (status != cudaSuccess) return status;
  // ---- task 3: prefetch there and back ------------------------------------------------------
  // TODO: prefetch in and out (bytes = n * sizeof(double) each) to the device:
  //         struct cudaMemLocation gpu = {cudaMemLocationTypeDevice, device};
  //         cudaMemPrefetchAsync(in, bytes, gpu, 0, 0);          (flags 0, stream 0)
  //       then launch with add_two_launch, prefetch out back to the host ({cudaMemLocationTypeHost,
  //       0}), wait with cudaDeviceSynchronize(), and return the first error.
  (void)in;
  (void)out;
  (void)n;
  (void)device;
  return cudaSuccess;
  // ---- end of task 3 ------------------------------------------------------------------------
}

/* Ways 3 to 6: separate host and device arrays, copies by hand. */
cudaError_t run_explicit(const double *host_in, double *host_out, double *dev_in, double *dev_out,
                         int n) {
  // ---- task 4: copy in, compute, copy out ---------------------------------------------------
  // TODO: cudaMemcpy host_in to dev_in (cudaMemcpyHostToDevice), launch on the device arrays,
  //       then cudaMemcpy dev_out into host_out (cudaMemcpyDeviceToHost): the existing array,
  //       like Numba's d_ary.copy_to_host(ary). That copy waits for the kernel. Return the
  //       first error.
  (void)host_in;
  (void)host_out;
  (void)dev_in;
  (void)dev_out;
  (void)n;
  return cudaSuccess;
  // ---- end of task 4 ------------------------------------------------------------------------
}

/* Way 5: host memory that the operating system may not move or swap out. */
cudaError_t pinned_alloc(double **host_in, double **host_out, size_t n) {
  // ---- task 5: pinned host memory -----------------------------------------------------------
  // TODO: allocate *host_in and *host_out, n * sizeof(double) bytes each, with cudaMallocHost.
  //       Return the first error; the driver frees them with cudaFreeHost.
  (void)n;
  *host_in = NULL;
  *host_out = NULL;
  return cudaSuccess;
  // ---- end of task 5 ------------------------------------------------------------------------
}

/* Way 6: pin arrays that already exist (made by malloc), in place. */
cudaError_t pin_existing(double *host_in, double *host_out, size_t n) {
  // ---- task 6: pin in place -----------------------------------------------------------------
  // TODO: pin both arrays in place with
  //         cudaHostRegister(pointer, n * sizeof(double), cudaHostRegisterDefault).
  //       Return the first error; the driver undoes it with cudaHostUnregister before free().
  (void)n;
  (void)host_in;
  (void)host_out;
  return cudaSuccess;
  // ---- end of task 6 ------------------------------------------------------------------------
}

/* Way 7: host memory the kernel reads and writes directly, over the bus. */
cudaError_t mapped_alloc(double **host_in, double **host_out, double **dev_in, double **dev_out,
                         size_t n) {
  // ---- task 7: mapped (zero-copy) memory ----------------------------------------------------
  // TODO: allocate *host_in and *host_out with cudaHostAlloc(..., n * sizeof(double),
  //       cudaHostAllocMapped),
  //       then ask for the addresses the kernel must use with
  //       cudaHostGetDevicePointer((void **)dev_in, *host_in, 0), and the same for out.
  (void)n;
  *host_in = *host_out = *dev_in = *dev_out = NULL;
  return cudaSuccess;
  // ---- end of task 7 ------------------------------------------------------------------------
}
