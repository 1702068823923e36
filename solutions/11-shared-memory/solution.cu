/* Lesson 11: shared memory.
 *
 * Shared memory is a small, fast memory that the threads of one block share. A block copies the
 * part of an array it needs into it once, waits at __syncthreads() until every thread has done its
 * share of the copying, and then reads it many times, from shared memory instead of from global
 * memory.
 *
 * First a 1D stencil: each output element is the sum of an input element and its RADIUS neighbours
 * on either side. A block of 256 threads needs 256 + 2 * RADIUS inputs: its tile and a halo on each
 * side. Then a tiled matrix multiply: each block computes a TILE x TILE piece of C from tiles of A
 * and B that it loads into shared memory one pair at a time.
 *
 * Your three tasks are marked below. Check your work with:  ./workbook check 11
 * (or: ctest --test-dir build -L lesson11 --output-on-failure).
 */
#include "lesson.h"

/* The stencil: one thread per element, blocks of STENCIL_BLOCK threads. */
__global__ void stencil_kernel(const float *__restrict__ in, float *__restrict__ out, int n) {
  // ---- task 1: load the tile and its halos into shared memory -------------------------------
  __shared__ float window[STENCIL_BLOCK + 2 * RADIUS]; /* halo, tile, halo */
  int i = blockIdx.x * blockDim.x + threadIdx.x;       /* this thread's element */
  int local = threadIdx.x + RADIUS;                    /* and its place in the window */
  window[local] = i < n ? in[i] : 0.0f;
  if (threadIdx.x < RADIUS) { /* the first RADIUS threads also load both halos */
    int left = i - RADIUS, right = i + STENCIL_BLOCK;
    window[threadIdx.x] = left >= 0 ? in[left] : 0.0f;
    window[local + STENCIL_BLOCK] = right < n ? in[right] : 0.0f;
  }
  // ---- end of task 1 ------------------------------------------------------------------------
  // ---- task 2: wait for the whole window, then add up the neighbours ------------------------
  __syncthreads(); /* the whole window is loaded */
  if (i < n) {
    float sum = 0.0f;
    for (int offset = -RADIUS; offset <= RADIUS; ++offset) sum += window[local + offset];
    out[i] = sum;
  }
  // ---- end of task 2 ------------------------------------------------------------------------
}

cudaError_t stencil_1d(const float *d_in, float *d_out, int n) {
  int blocks = (n + STENCIL_BLOCK - 1) / STENCIL_BLOCK;
  stencil_kernel<<<blocks, STENCIL_BLOCK>>>(d_in, d_out, n);
  return cudaGetLastError();
}

/* The naive matrix multiply: one thread per element of C, every operand from global memory. */
__global__ void matmul_naive_kernel(const float *__restrict__ a, const float *__restrict__ b,
                                    float *__restrict__ c, int m, int n, int k) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < m && col < n) {
    float sum = 0.0f;
    for (int i = 0; i < k; ++i) sum += a[row * k + i] * b[i * n + col];
    c[row * n + col] = sum;
  }
}

/* The tiled matrix multiply: the same threads, but each block walks along a row of tiles of A and
 * a column of tiles of B, and each thread loads one element of each tile for the whole block. */
__global__ void matmul_tiled_kernel(const float *__restrict__ a, const float *__restrict__ b,
                                    float *__restrict__ c, int m, int n, int k) {
  // ---- task 3: the tiled loop ---------------------------------------------------------------
  __shared__ float a_tile[TILE][TILE];
  __shared__ float b_tile[TILE][TILE];
  int col = blockIdx.x * TILE + threadIdx.x;
  int row = blockIdx.y * TILE + threadIdx.y;
  float sum = 0.0f;
  for (int start = 0; start < k; start += TILE) {
    int a_col = start + threadIdx.x, b_row = start + threadIdx.y;
    a_tile[threadIdx.y][threadIdx.x] = row < m && a_col < k ? a[row * k + a_col] : 0.0f;
    b_tile[threadIdx.y][threadIdx.x] = b_row < k && col < n ? b[b_row * n + col] : 0.0f;
    __syncthreads(); /* both tiles are loaded */
    for (int i = 0; i < TILE; ++i) sum += a_tile[threadIdx.y][i] * b_tile[i][threadIdx.x];
    __syncthreads(); /* nobody still reads these tiles when the next ones are loaded */
  }
  if (row < m && col < n) c[row * n + col] = sum;
  // ---- end of task 3 ------------------------------------------------------------------------
}

static dim3 matmul_grid(int m, int n) {
  return dim3((unsigned)((n + TILE - 1) / TILE), (unsigned)((m + TILE - 1) / TILE));
}

cudaError_t matmul_naive(const float *d_a, const float *d_b, float *d_c, int m, int n, int k) {
  matmul_naive_kernel<<<matmul_grid(m, n), dim3(TILE, TILE)>>>(d_a, d_b, d_c, m, n, k);
  return cudaGetLastError();
}

cudaError_t matmul_tiled(const float *d_a, const float *d_b, float *d_c, int m, int n, int k) {
  matmul_tiled_kernel<<<matmul_grid(m, n), dim3(TILE, TILE)>>>(d_a, d_b, d_c, m, n, k);
  return cudaGetLastError();
}
