/* Lesson 15: debugging with the sanitizers.
 *
 * This program writes a test signal, smooths it through shared memory, and reads the peak of
 * the result on the host, all on managed memory. As shipped, each task region below holds one
 * planted bug, a classic: the simulator's memory checker (or the wrong answer it leaves) finds
 * it, and so does compute-sanitizer on a GPU. Run the check, read the report, fix the code it
 * names, and only inside that task's region.
 *
 * Check your work with:  ./workbook check 15
 * (or: ctest --test-dir build -L lesson15 --output-on-failure).
 */
#include "lesson.h"

/* One thread per element, blocks of BLOCK threads: the last block runs past the end. */
__global__ void fill_kernel(float *signal, int n, unsigned seed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // ---- task 1: an out-of-bounds write -------------------------------------------------------
  if (i < n) signal[i] = (float)(((unsigned)i * 2654435761u + seed) % 1000u) / 1000.0f;
  // ---- end of task 1 ------------------------------------------------------------------------
}

cudaError_t fill_signal(float *signal, int n, unsigned seed) {
  fill_kernel<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(signal, n, seed);
  return cudaGetLastError();
}

/* Each block copies its BLOCK elements and one halo cell on either side into shared memory,
 * then each thread adds its cell and its two neighbours. */
__global__ void smooth_kernel(const float *signal, float *smoothed, int n) {
  __shared__ float window[BLOCK + 2]; /* halo, the block's elements, halo */
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int local = threadIdx.x + 1;
  // ---- task 3: uninitialized shared memory --------------------------------------------------
  if (threadIdx.x == 0) { /* thread 0 loads both halo cells, 0 outside the signal */
    int left = i - 1, right = i + BLOCK;
    window[0] = left >= 0 ? signal[left] : 0.0f;
    window[BLOCK + 1] = right < n ? signal[right] : 0.0f;
  }
  // ---- end of task 3 ------------------------------------------------------------------------
  // ---- task 2: a shared-memory race ---------------------------------------------------------
  window[local] = i < n ? signal[i] : 0.0f; /* this thread's element */
  __syncthreads();                          /* every cell of the window is written */
  // ---- end of task 2 ------------------------------------------------------------------------
  if (i < n) smoothed[i] = (window[local - 1] + window[local] + window[local + 1]) / 3.0f;
}

cudaError_t smooth(const float *signal, float *smoothed, int n) {
  smooth_kernel<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(signal, smoothed, n);
  return cudaGetLastError();
}

float pipeline_peak(float *signal, float *smoothed, int n, unsigned seed) {
  if (fill_signal(signal, n, seed) != cudaSuccess) return -1.0f;
  if (smooth(signal, smoothed, n) != cudaSuccess) return -1.0f;
  // ---- task 4: the host reads managed memory ------------------------------------------------
  if (cudaDeviceSynchronize() != cudaSuccess) return -1.0f; /* the kernels have finished */
  // ---- end of task 4 ------------------------------------------------------------------------
  float peak = 0.0f;
  for (int i = 0; i < n; ++i)
    if (smoothed[i] > peak) peak = smoothed[i];
  return peak;
}
