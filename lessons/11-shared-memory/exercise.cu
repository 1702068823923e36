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
  // TODO: start with the window and this thread's two indices:
  //         __shared__ float window[STENCIL_BLOCK + 2 * RADIUS]; /* halo, tile, halo */
  //         int i = blockIdx.x * blockDim.x + threadIdx.x;       /* this thread's element */
  //         int local = threadIdx.x + RADIUS;                    /* its place in the window */
  //       Then store in[i] in window[local] (0 when i >= n: the last block runs past the end).
  //       And let the first RADIUS threads (threadIdx.x < RADIUS) also load the halos: the
  //       RADIUS elements before the block's first one into window[0 .. RADIUS-1], and the
  //       RADIUS elements after its last one into window[local + STENCIL_BLOCK]. An element
  //       outside 0 .. n-1 counts as 0.
  (void)in;
  (void)n;
  // ---- end of task 1 ------------------------------------------------------------------------
  // ---- task 2: wait for the whole window, then add up the neighbours ------------------------
  // TODO: wait with __syncthreads() until every thread has stored its share of the window;
  //       then, only if i < n, add window[local - RADIUS] .. window[local + RADIUS] and store
  //       the sum in out[i]. Every thread of the block must reach the barrier: no early
  //       return before it.
  (void)out;
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
  // TODO: start with the two tiles and this thread's element of C:
  //         __shared__ float a_tile[TILE][TILE];
  //         __shared__ float b_tile[TILE][TILE];
  //         int col = blockIdx.x * TILE + threadIdx.x;
  //         int row = blockIdx.y * TILE + threadIdx.y;
  //       Then, for each tile start = 0, TILE, 2 * TILE, ... below k: store A[row][start + tx]
  //       in a_tile[ty][tx] and B[start + ty][col] in b_tile[ty][tx] (0 where the element is
  //       outside the matrix), __syncthreads(), add a_tile[ty][i] * b_tile[i][tx] for
  //       i = 0 .. TILE-1 to a running sum, and __syncthreads() again before the next tiles
  //       overwrite these. Finally, if row < m and col < n, store the sum in c[row * n + col].
  //       (tx and ty are threadIdx.x and threadIdx.y; the matrices are row-major.)
  (void)a;
  (void)b;
  (void)c;
  (void)m;
  (void)n;
  (void)k;
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
