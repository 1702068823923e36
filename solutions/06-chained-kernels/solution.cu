/* Lesson 06: chained kernels.
 *
 * Three small kernels, one after another, over the same array. The kernels are given; your tasks
 * are about where the data lives between them:
 *
 *   1  the naive way: copy to the device, run one step, copy back; three times;
 *   2  copy in once, run all three steps while the data stays on the device, copy out once;
 *   3  the same in chunks on several streams with asynchronous copies, so that while one
 *      chunk is being copied another chunk is being computed;
 *   4  wait for every stream before the host reads the result.
 *
 * Check your work with:  ./workbook check 06
 * (or: ctest --test-dir build -L lesson06 --output-on-failure).
 */
#include "lesson.h"

enum { THREADS_PER_BLOCK = 256 };

/* The three steps. Each is memory-bound: one read and one write per element. */
__global__ void scale_kernel(double *data, int n) {
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) data[i] = data[i] * 3.0;
}

__global__ void shift_kernel(double *data, int n) {
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) data[i] = data[i] + 1.0;
}

__global__ void square_kernel(double *data, int n) {
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    data[i] = data[i] * data[i];
}

cudaError_t chain_step(int step, double *d_data, int n, cudaStream_t stream) {
  int blocks = (n + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK;
  if (step == 0)
    scale_kernel<<<blocks, THREADS_PER_BLOCK, 0, stream>>>(d_data, n);
  else if (step == 1)
    shift_kernel<<<blocks, THREADS_PER_BLOCK, 0, stream>>>(d_data, n);
  else
    square_kernel<<<blocks, THREADS_PER_BLOCK, 0, stream>>>(d_data, n);
  return cudaGetLastError();
}

cudaError_t chain_all_steps(double *d_data, int n, cudaStream_t stream) {
  for (int step = 0; step < CHAIN_STEPS; ++step) {
    cudaError_t status = chain_step(step, d_data, n, stream);
    if (status != cudaSuccess) return status;
  }
  return cudaSuccess;
}

/* Task 1: what the Python original warned about, written out on purpose so you can time it. */
cudaError_t chain_round_trips(const double *host_in, double *host_out, double *d_data, int n) {
  // ---- task 1: a round trip around every step -----------------------------------------------
  size_t bytes = (size_t)n * sizeof(double);
  for (int step = 0; step < CHAIN_STEPS; ++step) {
    const double *source = step == 0 ? host_in : host_out;
    cudaError_t status = cudaMemcpy(d_data, source, bytes, cudaMemcpyHostToDevice);
    if (status != cudaSuccess) return status;
    if ((status = chain_step(step, d_data, n, 0)) != cudaSuccess) return status;
    if ((status = cudaMemcpy(host_out, d_data, bytes, cudaMemcpyDeviceToHost)) != cudaSuccess)
      return status;
  }
  return cudaSuccess;
  // ---- end of task 1 ------------------------------------------------------------------------
}

/* Task 2: the data stays on the device between the steps. */
cudaError_t chain_on_device(const double *host_in, double *host_out, double *d_data, int n) {
  // ---- task 2: copy in once, three steps, copy out once -------------------------------------
  size_t bytes = (size_t)n * sizeof(double);
  cudaError_t status = cudaMemcpy(d_data, host_in, bytes, cudaMemcpyHostToDevice);
  if (status != cudaSuccess) return status;
  if ((status = chain_all_steps(d_data, n, 0)) != cudaSuccess) return status;
  return cudaMemcpy(host_out, d_data, bytes, cudaMemcpyDeviceToHost); /* waits for the steps */
  // ---- end of task 2 ------------------------------------------------------------------------
}

/* Tasks 3 and 4: chunks on several streams. */
cudaError_t chain_streamed(const double *host_in, double *host_out, double *d_data, int n,
                           int chunk, const cudaStream_t *streams, int stream_count) {
  cudaError_t status = cudaSuccess;
  // ---- task 3: copy, compute, copy back, chunk by chunk -------------------------------------
  for (int first = 0, c = 0; first < n && status == cudaSuccess; first += chunk, ++c) {
    int count = n - first < chunk ? n - first : chunk;
    size_t bytes = (size_t)count * sizeof(double);
    cudaStream_t stream = streams[c % stream_count];
    /* All three in order on one stream; other streams' chunks are free to run alongside. */
    status =
        cudaMemcpyAsync(d_data + first, host_in + first, bytes, cudaMemcpyHostToDevice, stream);
    if (status == cudaSuccess) status = chain_all_steps(d_data + first, count, stream);
    if (status == cudaSuccess)
      status =
          cudaMemcpyAsync(host_out + first, d_data + first, bytes, cudaMemcpyDeviceToHost, stream);
  }
  // ---- end of task 3 ------------------------------------------------------------------------
  // ---- task 4: wait for every stream --------------------------------------------------------
  for (int s = 0; s < stream_count; ++s) {
    cudaError_t waited = cudaStreamSynchronize(streams[s]);
    if (status == cudaSuccess) status = waited; /* wait for all, even after an error */
  }
  // ---- end of task 4 ------------------------------------------------------------------------
  return status;
}
