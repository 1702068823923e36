/* Lesson 10: what allocation costs.
 *
 * cudaMalloc asks the driver for fresh device memory and cudaFree gives it back; both are slow
 * (cudaFree also waits for the whole device). A memory POOL keeps memory it has handed out and
 * had back, and hands it out again without asking the driver: cudaMallocAsync and cudaFreeAsync
 * take it from and return it to the device's pool, in stream order, without waiting for anything.
 *
 * Your four tasks are marked below. Check your work with:  ./workbook check 10
 * (or: ctest --test-dir build -L lesson10 --output-on-failure).
 */
#include "lesson.h"

static const int threads_per_block = 256;

/* Enough blocks to fill the GPU; a grid-stride loop covers whatever is left. */
static unsigned int blocks_for(size_t n) {
  size_t blocks = (n + threads_per_block - 1) / threads_per_block;
  return (unsigned int)(blocks < 4096 ? blocks : 4096);
}

/* data[i] = i: the data is made where it is needed, nothing crosses the bus. */
__global__ void arange_kernel(int *data, size_t n) {
  // ---- task 1: make the data on the device ----------------------------------------------
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    data[i] = (int)i;
  // ---- end of task 1 ---------------------------------------------------------------------
}

cudaError_t arange_on_device(int *d_data, size_t n, cudaStream_t stream) {
  arange_kernel<<<blocks_for(n), threads_per_block, 0, stream>>>(d_data, n);
  return cudaGetLastError();
}

/* One step's temporary, and its use. */
__global__ void make_temp_kernel(int *tmp, const int *x, size_t n, int step) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    tmp[i] = (x[i] % 1000) * (step + 1);
}

__global__ void accumulate_kernel(int *acc, const int *tmp, size_t n) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    acc[i] += tmp[i];
}

/* The slow way, given: a fresh cudaMalloc every step, and a cudaFree that waits for the device. */
cudaError_t steps_with_cudamalloc(const int *d_x, int *d_acc, size_t n, int steps,
                                  cudaStream_t stream) {
  for (int step = 0; step < steps; ++step) {
    int *d_tmp = NULL;
    cudaError_t status = cudaMalloc((void **)&d_tmp, n * sizeof(int));
    if (status != cudaSuccess) return status;
    make_temp_kernel<<<blocks_for(n), threads_per_block, 0, stream>>>(d_tmp, d_x, n, step);
    accumulate_kernel<<<blocks_for(n), threads_per_block, 0, stream>>>(d_acc, d_tmp, n);
    status = cudaGetLastError();
    if (status != cudaSuccess) return status;
    status = cudaFree(d_tmp); /* the kernels still use d_tmp: cudaFree waits for them */
    if (status != cudaSuccess) return status;
  }
  return cudaSuccess;
}

/* The same steps, with every temporary taken from the pool and given back in stream order. */
cudaError_t steps_with_pool(const int *d_x, int *d_acc, size_t n, int steps, cudaStream_t stream) {
  // ---- task 2: temporaries from the pool --------------------------------------------------
  for (int step = 0; step < steps; ++step) {
    int *d_tmp = NULL;
    cudaError_t status = cudaMallocAsync((void **)&d_tmp, n * sizeof(int), stream);
    if (status != cudaSuccess) return status;
    make_temp_kernel<<<blocks_for(n), threads_per_block, 0, stream>>>(d_tmp, d_x, n, step);
    accumulate_kernel<<<blocks_for(n), threads_per_block, 0, stream>>>(d_acc, d_tmp, n);
    status = cudaGetLastError();
    if (status != cudaSuccess) return status;
    /* Queued behind the two kernels: the memory returns to the pool when they are done, and the
     * next step's cudaMallocAsync on this stream can have it straight back. */
    status = cudaFreeAsync(d_tmp, stream);
    if (status != cudaSuccess) return status;
  }
  return cudaSuccess;
  // ---- end of task 2 ---------------------------------------------------------------------
}

cudaError_t set_release_threshold(cudaMemPool_t pool, unsigned long long bytes) {
  // ---- task 3: let the pool keep its memory ----------------------------------------------
  /* The attribute's value is a 64-bit unsigned integer, passed by address. */
  return cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &bytes);
  // ---- end of task 3 ---------------------------------------------------------------------
}

cudaError_t trim_pool(cudaMemPool_t pool, cudaStream_t stream) {
  // ---- task 4: give the pool's unused memory back ----------------------------------------
  /* A cudaFreeAsync the host has not yet seen complete may still count as in use: wait first. */
  cudaError_t status = cudaStreamSynchronize(stream);
  if (status != cudaSuccess) return status;
  return cudaMemPoolTrimTo(pool, 0);
  // ---- end of task 4 ---------------------------------------------------------------------
}
