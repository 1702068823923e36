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
  size_t bytes = n * sizeof(double);
  cudaError_t status = cudaMallocManaged((void **)in, bytes, cudaMemAttachGlobal);
  if (status != cudaSuccess) return status;
  return cudaMallocManaged((void **)out, bytes, cudaMemAttachGlobal);
  // ---- end of task 1 ------------------------------------------------------------------------
}

/* Ways 1 and 7: memory the kernel can use where it is. */
cudaError_t run_in_place(const double *in, double *out, int n) {
  // ---- task 2: no copies, but still wait ----------------------------------------------------
  cudaError_t status = add_two_launch(in, out, n, 0);
  if (status != cudaSuccess) return status;
  return cudaDeviceSynchronize(); /* the host may read out only after this */
  // ---- end of task 2 ------------------------------------------------------------------------
}

/* Way 2: managed memory moved ahead of time instead of page by page. */
cudaError_t run_managed_prefetched(const double *in, double *out, int n) {
  int device = 0;
  cudaError_t status = cudaGetDevice(&device);
  if (status != cudaSuccess) return status;
  // ---- task 3: prefetch there and back ------------------------------------------------------
  size_t bytes = (size_t)n * sizeof(double);
  struct cudaMemLocation gpu = {cudaMemLocationTypeDevice, device};
  struct cudaMemLocation host = {cudaMemLocationTypeHost, 0};
  /* Whole arrays at once, ahead of the kernel, instead of one page fault at a time. */
  if ((status = cudaMemPrefetchAsync(in, bytes, gpu, 0, 0)) != cudaSuccess) return status;
  /* out too, though the kernel only writes it: its pages were last touched on the host (the
   * driver filled them), and a GPU moves such a page, old contents and all, at the first write
   * that faults on it. One bulk move beats thousands of faults; neither is free (see README). */
  if ((status = cudaMemPrefetchAsync(out, bytes, gpu, 0, 0)) != cudaSuccess) return status;
  if ((status = add_two_launch(in, out, n, 0)) != cudaSuccess) return status;
  /* Queued behind the kernel on the same stream, so it moves the finished result. */
  if ((status = cudaMemPrefetchAsync(out, bytes, host, 0, 0)) != cudaSuccess) return status;
  return cudaDeviceSynchronize();
  // ---- end of task 3 ------------------------------------------------------------------------
}

/* Ways 3 to 6: separate host and device arrays, copies by hand. */
cudaError_t run_explicit(const double *host_in, double *host_out, double *dev_in, double *dev_out,
                         int n) {
  // ---- task 4: copy in, compute, copy out ---------------------------------------------------
  size_t bytes = (size_t)n * sizeof(double);
  cudaError_t status = cudaMemcpy(dev_in, host_in, bytes, cudaMemcpyHostToDevice);
  if (status != cudaSuccess) return status;
  if ((status = add_two_launch(dev_in, dev_out, n, 0)) != cudaSuccess) return status;
  /* Into the caller's existing array; this copy waits for the kernel first. */
  return cudaMemcpy(host_out, dev_out, bytes, cudaMemcpyDeviceToHost);
  // ---- end of task 4 ------------------------------------------------------------------------
}

/* Way 5: host memory that the operating system may not move or swap out. */
cudaError_t pinned_alloc(double **host_in, double **host_out, size_t n) {
  // ---- task 5: pinned host memory -----------------------------------------------------------
  size_t bytes = n * sizeof(double);
  cudaError_t status = cudaMallocHost((void **)host_in, bytes);
  if (status != cudaSuccess) return status;
  return cudaMallocHost((void **)host_out, bytes);
  // ---- end of task 5 ------------------------------------------------------------------------
}

/* Way 6: pin arrays that already exist (made by malloc), in place. */
cudaError_t pin_existing(double *host_in, double *host_out, size_t n) {
  // ---- task 6: pin in place -----------------------------------------------------------------
  size_t bytes = n * sizeof(double);
  cudaError_t status = cudaHostRegister(host_in, bytes, cudaHostRegisterDefault);
  if (status != cudaSuccess) return status;
  return cudaHostRegister(host_out, bytes, cudaHostRegisterDefault);
  // ---- end of task 6 ------------------------------------------------------------------------
}

/* Way 7: host memory the kernel reads and writes directly, over the bus. */
cudaError_t mapped_alloc(double **host_in, double **host_out, double **dev_in, double **dev_out,
                         size_t n) {
  // ---- task 7: mapped (zero-copy) memory ----------------------------------------------------
  size_t bytes = n * sizeof(double);
  cudaError_t status = cudaHostAlloc((void **)host_in, bytes, cudaHostAllocMapped);
  if (status != cudaSuccess) return status;
  if ((status = cudaHostAlloc((void **)host_out, bytes, cudaHostAllocMapped)) != cudaSuccess)
    return status;
  /* The kernel must use the device's address for the same memory (equal under unified
   * addressing, but only this call promises it). */
  if ((status = cudaHostGetDevicePointer((void **)dev_in, *host_in, 0)) != cudaSuccess)
    return status;
  return cudaHostGetDevicePointer((void **)dev_out, *host_out, 0);
  // ---- end of task 7 ------------------------------------------------------------------------
}
