/* Lesson 13: memory coalescing.
 *
 * A warp's 32 loads (or stores) become one request to memory, served in 32-byte sectors. When the
 * 32 lanes touch 32 neighbouring floats, the request takes 4 sectors, the fewest there can be: it
 * is coalesced. When each lane touches a different row of a matrix, it takes 32 sectors, and 7 of
 * every 8 bytes moved are thrown away.
 *
 * A transpose cannot have both: reading rows means writing columns. Unless the block reads a tile
 * by rows into shared memory, and writes it out by rows of the transpose: shared memory does not
 * care about sectors, only about its 32 banks, and one column of padding keeps those apart too.
 * Then the same question for records: an array of structures against a structure of arrays.
 *
 * Your three tasks are marked below. Check your work with:  ./workbook check 13
 * (or: ctest --test-dir build -L lesson13 --output-on-failure).
 */
#include "lesson.h"

static dim3 tile_grid(int rows, int cols) {
  return dim3((unsigned)((cols + TILE - 1) / TILE), (unsigned)((rows + TILE - 1) / TILE));
}

/* The plain copy: thread (x, y) of the tile grid copies element (row, col) of in to out. */
__global__ void copy_kernel(const float *__restrict__ in, float *__restrict__ out, int rows,
                            int cols) {
  int col = blockIdx.x * TILE + threadIdx.x;
  int row = blockIdx.y * TILE + threadIdx.y;
  if (row < rows && col < cols) out[row * cols + col] = in[row * cols + col];
}

cudaError_t copy_matrix(const float *d_in, float *d_out, int rows, int cols) {
  copy_kernel<<<tile_grid(rows, cols), dim3(TILE, TILE)>>>(d_in, d_out, rows, cols);
  return cudaGetLastError();
}

/* The naive transpose: the same threads; each reads its element by rows (neighbouring lanes,
 * neighbouring floats: coalesced) and writes it by columns (each lane a different row of out). */
__global__ void transpose_naive_kernel(const float *__restrict__ in, float *__restrict__ out,
                                       int rows, int cols) {
  int col = blockIdx.x * TILE + threadIdx.x;
  int row = blockIdx.y * TILE + threadIdx.y;
  if (row < rows && col < cols) out[col * rows + row] = in[row * cols + col];
}

cudaError_t transpose_naive(const float *d_in, float *d_out, int rows, int cols) {
  transpose_naive_kernel<<<tile_grid(rows, cols), dim3(TILE, TILE)>>>(d_in, d_out, rows, cols);
  return cudaGetLastError();
}

/* The tiled transpose: block (bx, by) reads tile (bx, by) of in by rows, and writes it as tile
 * (by, bx) of out, again by rows; the turn happens in shared memory. */
__global__ void transpose_tiled_kernel(const float *__restrict__ in, float *__restrict__ out,
                                       int rows, int cols) {
  // ---- task 1: the tiled transpose ----------------------------------------------------------
  // TODO: start with the tile and the element of in this thread reads:
  //         __shared__ float tile[TILE][TILE];
  //         int col = blockIdx.x * TILE + threadIdx.x;
  //         int row = blockIdx.y * TILE + threadIdx.y;
  //       Store in[row * cols + col] in tile[threadIdx.y][threadIdx.x] (only inside the
  //       matrix: row < rows, col < cols), then __syncthreads(). Then write the tile out as
  //       tile (blockIdx.y, blockIdx.x) of out, by rows: this thread writes the element
  //         int out_col = blockIdx.y * TILE + threadIdx.x;
  //         int out_row = blockIdx.x * TILE + threadIdx.y;
  //       of out (cols rows of rows floats), which is in[out_col][out_row]: where in the tile
  //       is that? Only inside out: out_row < cols, out_col < rows.
  (void)in;
  (void)out;
  (void)rows;
  (void)cols;
  // ---- end of task 1 ------------------------------------------------------------------------
}

cudaError_t transpose_tiled(const float *d_in, float *d_out, int rows, int cols) {
  transpose_tiled_kernel<<<tile_grid(rows, cols), dim3(TILE, TILE)>>>(d_in, d_out, rows, cols);
  return cudaGetLastError();
}

/* The padded transpose: task 1 with one more column in the tile. */
__global__ void transpose_padded_kernel(const float *__restrict__ in, float *__restrict__ out,
                                        int rows, int cols) {
  // ---- task 2: the padded tile --------------------------------------------------------------
  // TODO: the same transpose as task 1, with one change: declare the tile with one more
  //       column, __shared__ float tile[TILE][TILE + 1]. The extra column is never used;
  //       it only moves each row of the tile one bank along (see the README).
  (void)in;
  (void)out;
  (void)rows;
  (void)cols;
  // ---- end of task 2 ------------------------------------------------------------------------
}

cudaError_t transpose_padded(const float *d_in, float *d_out, int rows, int cols) {
  transpose_padded_kernel<<<tile_grid(rows, cols), dim3(TILE, TILE)>>>(d_in, d_out, rows, cols);
  return cudaGetLastError();
}

/* Records as an array of structures: lane i reads two ints of record i, 20 bytes after lane
 * i - 1's. */
__global__ void thread_from_structures_kernel(const who_am_i *__restrict__ records,
                                              int *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = records[i].warp * 32 + records[i].lane;
}

cudaError_t thread_from_structures(const who_am_i *d_records, int *d_out, int n) {
  thread_from_structures_kernel<<<(n + THREADS - 1) / THREADS, THREADS>>>(d_records, d_out, n);
  return cudaGetLastError();
}

/* Records as a structure of arrays: the same result from the `warp` and `lane` arrays. */
__global__ void thread_from_columns_kernel(who_am_i_columns columns, int *__restrict__ out, int n) {
  // ---- task 3: the structure of arrays ------------------------------------------------------
  // TODO: one thread per record, as in thread_from_structures_kernel above: for
  //       i = blockIdx.x * blockDim.x + threadIdx.x, when i < n, store
  //       warp * 32 + lane of record i in out[i], reading them from columns.warp and
  //       columns.lane.
  (void)columns;
  (void)out;
  (void)n;
  // ---- end of task 3 ------------------------------------------------------------------------
}

cudaError_t thread_from_columns(who_am_i_columns d_columns, int *d_out, int n) {
  thread_from_columns_kernel<<<(n + THREADS - 1) / THREADS, THREADS>>>(d_columns, d_out, n);
  return cudaGetLastError();
}

/* The stride sweep: lane i reads the float `stride` places after lane i - 1's. */
__global__ void read_strided_kernel(const float *__restrict__ in, float *__restrict__ out,
                                    int count, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = in[(size_t)i * stride];
}

cudaError_t read_strided(const float *d_in, float *d_out, int count, int stride) {
  read_strided_kernel<<<(count + THREADS - 1) / THREADS, THREADS>>>(d_in, d_out, count, stride);
  return cudaGetLastError();
}
