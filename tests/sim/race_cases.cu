// The memory checker (runtime/instrument.cpp): races and out-of-bounds accesses it must report,
// and correct patterns it must accept. Usage: race_cases CASE; prints "CASE: ok" when the kernel
// ran without error and its result is right, else the error's name.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

// ---- races
// ---------------------------------------------------------------------------------------
__global__ void count_plain(unsigned *count) { // every thread: read, add, write
  *count += 1;
}
__global__ void count_atomic(unsigned *count) {
  atomicAdd(count, 1u);
}
__global__ void shared_no_barrier(const int *in, int *out) { // reads a neighbour's cell too early
  __shared__ int cell[64];
  cell[threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = cell[(threadIdx.x + 32) % 64];
}
__global__ void shared_barrier(const int *in, int *out) {
  __shared__ int cell[64];
  cell[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = cell[(threadIdx.x + 32) % 64];
}
__global__ void warp_no_sync(const int *in, int *out) { // lanes of one warp, no __syncwarp
  __shared__ int cell[32];
  cell[threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = cell[(threadIdx.x + 1) % 32];
}
__global__ void warp_sync(const int *in, int *out) {
  __shared__ int cell[32];
  cell[threadIdx.x] = in[threadIdx.x];
  __syncwarp();
  out[threadIdx.x] = cell[(threadIdx.x + 1) % 32];
}
__global__ void other_block_reads(int *data) { // block 1 reads what block 0 writes
  if (blockIdx.x == 0) data[threadIdx.x] = (int)threadIdx.x;
  if (blockIdx.x == 1) data[64 + threadIdx.x] = data[threadIdx.x];
}
__global__ void same_flag(const int *in, int *found) { // many threads write the same value
  if (in[threadIdx.x] > 10) *found = 1;
}
__global__ void in_place_own(int *data) { // each thread its own element: read, then write
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] = data[i] * 2 + 1;
}
__global__ void broadcast_then_write(int *data) { // all read data[0], then thread 0 overwrites it
  int v = data[0];
  __syncthreads();
  if (threadIdx.x == 0) data[0] = v + 1;
}
__global__ void broadcast_no_barrier(int *data, int *out) { // thread 40 overwrites what others read
  out[threadIdx.x] = data[0];
  if (threadIdx.x == 40) data[0] = 7;
}
// The "last block" pattern: each block stores its partial sum, fences, and takes a ticket; the
// block that takes the last ticket reads every partial (ordered by the fence and the atomic).
__device__ unsigned tickets;
__global__ void last_block(const int *in, int *partials, int *total) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = in[blockIdx.x];
    __threadfence();
    last = atomicInc(&tickets, gridDim.x) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    int s = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) s += partials[b];
    *total = s;
  }
}
// A tree in shared memory with barriers at every level (the right way).
__global__ void tree(const int *in, int *out) {
  __shared__ int cell[128];
  cell[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) cell[threadIdx.x] += cell[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = cell[0];
}

// ---- bounds
// --------------------------------------------------------------------------------------
__global__ void one_past(const float *in, float *out, int n) { // i <= n
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) out[i] = in[i];
}
// Arrays of exactly one page (4096 bytes): every byte of the page is addressable, so the checker
// settles their accesses by the page (page_ok, instrument.cpp); the read one past is on the next
// page, which must not count as addressable.
template <class T> __global__ void page_past(const T *in, T *out, int n) { // i <= n
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) out[i] = in[i];
}
// An array of 3 ints: its last word shares a granule with the 4 bytes after it (issue 27, item 7:
// the checker's fast path takes such a granule only for the bytes that are addressable).
__global__ void odd_past(const int *in, int *out, int n) { // i <= n
  int i = threadIdx.x;
  if (i <= n) out[i] = in[i];
}
__global__ void odd_size(const int *in, int *out) { // every thread reads all 3: many readers
  out[blockIdx.x * blockDim.x + threadIdx.x] = in[0] + in[1] + in[2];
}
__global__ void before_start(float *out) {
  out[(int)threadIdx.x - 1] = 1.0f;
}
__global__ void shared_past(int *out) {
  extern __shared__ int dyn[];
  dyn[threadIdx.x] = 1; // the launch gave room for 32 ints, and 64 threads run
  __syncthreads();
  out[threadIdx.x] = dyn[threadIdx.x];
}
// Element -2 meant, index ~1u given (HeCBench merge, kernels.h:218): on a GPU the 32-bit __shared__
// address wraps to tile[6]; here the index is 2^32 - 2, 4 x 2^32 bytes further on.
__global__ void shared_wrap(int *out) {
  __shared__ int tile[64];
  tile[threadIdx.x] = (int)threadIdx.x;
  __syncthreads();
  const int *p = &tile[8];
  unsigned back = threadIdx.x + 1u; // 1: ~back is 2^32 - 2, meant as -2
  if (threadIdx.x == 0) out[0] = p[~back];
}
__global__ void after_free(float *p) {
  p[threadIdx.x] = 2.0f;
}
__global__ void after_free_through(float **holder) { // the launch sees only the holder's address
  holder[0][threadIdx.x] = 2.0f;
}

__global__ void shared_uninit(int *out) { // reads a slot no thread wrote (the block has 32 threads)
  __shared__ int tile[64];
  tile[threadIdx.x] = (int)threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x + 32];
}
__global__ void shared_uninit_own(int *out) { // reads its own slot before writing it
  __shared__ int acc[32];
  acc[threadIdx.x] += 1;
  out[threadIdx.x] = acc[threadIdx.x];
}
__global__ void shared_blocks_reuse(int *out) { // every block writes, syncs, then reads: fine
  __shared__ int tile[32];
  tile[threadIdx.x] = (int)(blockIdx.x * 32 + threadIdx.x);
  __syncthreads();
  out[blockIdx.x * 32 + threadIdx.x] = tile[31 - threadIdx.x];
}
// Vector accesses: one 16-byte access each (the checker's flags keep gcc from splitting them),
// still checked byte by byte for bounds and word by word for races.
__global__ void float4_past(const float *x, float *out, int n4) { // n4 rounded up: the last one
  int i = blockIdx.x * blockDim.x + threadIdx.x;                  // reads 8 bytes past the end
  if (i < n4) {
    float4 v = reinterpret_cast<const float4 *>(x)[i];
    out[i] = v.x + v.y + v.z + v.w;
  }
}
__global__ void float4_component_race(const float4 *in, float4 *out) { // no barrier before .y
  __shared__ float4 cell[64];
  cell[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  cell[threadIdx.x].y += 1.0f;                      // one component of each cell
  out[threadIdx.x] = cell[(threadIdx.x + 32) % 64]; // all four of another thread's cell
}
__global__ void float4_component_barrier(const float4 *in, float4 *out) {
  __shared__ float4 cell[64];
  cell[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  cell[threadIdx.x].y += 1.0f;
  __syncthreads();
  out[threadIdx.x] = cell[(threadIdx.x + 32) % 64];
}
// The same on a __shared__ array declared at file scope (each block its own copy, as above).
__shared__ int file_cell[64];
__global__ void file_shared_no_barrier(const int *in, int *out) {
  file_cell[threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = file_cell[(threadIdx.x + 32) % 64];
}
__global__ void file_shared_uninit(int *out) { // the block has 32 threads: 32..63 are never written
  file_cell[threadIdx.x] = (int)threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = file_cell[threadIdx.x + 32];
}
__global__ void file_shared_barrier(const int *in, int *out) {
  file_cell[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = file_cell[63 - threadIdx.x];
}

// The epochs wrap after 65,535 launches: the race shadow is cleared for real then (the records'
// epoch would repeat). wrap_write's record, 65,535 launches before wrap_read, must not be seen as
// this launch's (a false race between blocks); a race after the wrap still names both lines.
__global__ void wrap_write(int *data) {
  data[0] = 7;
}
__global__ void wrap_nothing() {}
__global__ void wrap_read(const int *data, int *out) {
  out[blockIdx.x] = data[0];
}
__global__ void wrap_race(int *data) { // thread 33 reads what thread 0 writes, no barrier
  if (threadIdx.x == 0) data[1] = 1;
  if (threadIdx.x == 33) data[2] = data[1];
}

// Words that threads of several blocks read (a table every block looks up): from the second
// block's read on, later reads skip their records (read_shared, instrument.cpp) until a write.
__global__ void table_reads(const int *table, int *out) { // read by every block: no race
  out[blockIdx.x * blockDim.x + threadIdx.x] = table[threadIdx.x] + table[63 - threadIdx.x];
}
__global__ void table_write(int *table) { // a later launch may write it: ordered by the launch
  table[threadIdx.x] += 1;
}
// Block 1's thread 0 reads data[0] after block 0's did, passes a barrier and writes it: block 0's
// read is unordered with the write (no barrier orders two blocks), whichever thread the record
// names; in the other orders the race is found at block 0's read, or by its record.
__global__ void read_by_blocks_then_write(int *data, int *out) {
  int v = data[0];
  __syncthreads();
  if (blockIdx.x == 1 && threadIdx.x == 0) data[0] = v + 1;
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
// The same after many blocks read: the write is still a race (the reads skipped their records).
__global__ void table_reads_then_write(int *table, int *out) {
  int v = table[threadIdx.x];
  __syncthreads();
  if (blockIdx.x == 2 && threadIdx.x == 5) table[5] = v + 1;
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// Blocks 0-2 read data[0] (marked read_shared from block 1's read on); block 2's thread 0 then
// writes it through a volatile pointer (no report against other blocks' reads), and block 3's plain
// read of that write is a race: the write must have ended the mark (one worker: blocks in order).
__global__ void shared_reads_volatile_write(int *data, int *out) {
  int v = blockIdx.x < 3 ? data[0] : 0;
  __syncthreads();
  if (blockIdx.x == 2 && threadIdx.x == 0) *(volatile int *)data = v + 1;
  if (blockIdx.x == 3) out[threadIdx.x] = data[0];
}

static int finish(const char *name, bool right) {
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("%s: %s\n", name, cudaGetErrorName(e));
    return 1;
  }
  std::printf("%s: %s\n", name, right ? "ok" : "wrong result");
  return right ? 0 : 1;
}

// page_past over a block of exactly one page, one thread per element and one more.
template <class T> static int run_page_past(const char *name) {
  const int n = 4096 / sizeof(T);
  T *a, *b;
  cudaMalloc(&a, n * sizeof(T));
  cudaMalloc(&b, 2 * n * sizeof(T));
  cudaMemset(a, 0, n * sizeof(T));
  page_past<<<n / 256 + 1, 256>>>(a, b, n);
  return finish(name, true);
}

int main(int argc, char **argv) {
  const char *c = argc > 1 ? argv[1] : "";
  int *in, *out, *data;
  unsigned *count;
  cudaMallocManaged(&in, 256 * sizeof(int));
  cudaMallocManaged(&out, 256 * sizeof(int));
  cudaMallocManaged(&data, 256 * sizeof(int));
  cudaMallocManaged(&count, sizeof(unsigned));
  for (int i = 0; i < 256; ++i) in[i] = i, out[i] = 0, data[i] = i;
  *count = 0;
  if (!std::strcmp(c, "count_plain")) {
    count_plain<<<1, 64>>>(count); // one block: the first race is between lanes 0 and 1
    return finish(c, *count == 64);
  }
  if (!std::strcmp(c, "count_atomic")) {
    count_atomic<<<4, 64>>>(count);
    cudaDeviceSynchronize();
    return finish(c, *count == 256);
  }
  if (!std::strcmp(c, "shared_no_barrier")) {
    shared_no_barrier<<<1, 64>>>(in, out);
    return finish(c, true);
  }
  if (!std::strcmp(c, "shared_barrier")) {
    shared_barrier<<<2, 64>>>(in, out);
    cudaDeviceSynchronize();
    return finish(c, out[0] == 32 && out[40] == 8);
  }
  if (!std::strcmp(c, "warp_no_sync")) {
    warp_no_sync<<<1, 32>>>(in, out);
    return finish(c, true);
  }
  if (!std::strcmp(c, "warp_sync")) {
    warp_sync<<<1, 32>>>(in, out);
    cudaDeviceSynchronize();
    return finish(c, out[0] == 1 && out[31] == 0);
  }
  if (!std::strcmp(c, "other_block_reads")) {
    other_block_reads<<<2, 64>>>(data);
    return finish(c, true);
  }
  if (!std::strcmp(c, "same_flag")) {
    same_flag<<<1, 64>>>(in, out);
    cudaDeviceSynchronize();
    return finish(c, out[0] == 1);
  }
  if (!std::strcmp(c, "in_place_own")) {
    in_place_own<<<4, 64>>>(data);
    cudaDeviceSynchronize();
    return finish(c, data[0] == 1 && data[255] == 511);
  }
  if (!std::strcmp(c, "broadcast_then_write")) {
    broadcast_then_write<<<1, 64>>>(data);
    cudaDeviceSynchronize();
    return finish(c, data[0] == 1);
  }
  if (!std::strcmp(c, "broadcast_no_barrier")) {
    broadcast_no_barrier<<<1, 64>>>(data, out);
    return finish(c, true);
  }
  if (!std::strcmp(c, "last_block")) {
    last_block<<<8, 32>>>(in, data, out);
    cudaDeviceSynchronize();
    return finish(c, out[0] == 28);
  }
  if (!std::strcmp(c, "tree")) {
    tree<<<1, 128>>>(in, out);
    cudaDeviceSynchronize();
    return finish(c, out[0] == 127 * 128 / 2);
  }
  if (!std::strcmp(c, "one_past")) {
    float *a, *b;
    cudaMalloc(&a, 1000 * sizeof(float));
    cudaMalloc(&b, 1000 * sizeof(float));
    cudaMemset(a, 0, 1000 * sizeof(float));
    one_past<<<4, 256>>>(a, b, 1000);
    return finish(c, true);
  }
  if (!std::strcmp(c, "page_past")) return run_page_past<float>(c);
  if (!std::strcmp(c, "page_past_double")) return run_page_past<double>(c);
  if (!std::strcmp(c, "odd_past") || !std::strcmp(c, "odd_size")) {
    int *a, *b, host[128];
    cudaMalloc(&a, 3 * sizeof(int));
    cudaMalloc(&b, 128 * sizeof(int));
    int three[3] = {1, 2, 3};
    cudaMemcpy(a, three, sizeof three, cudaMemcpyHostToDevice);
    if (!std::strcmp(c, "odd_past")) {
      odd_past<<<1, 4>>>(a, b, 3);
      return finish(c, true);
    }
    odd_size<<<2, 64>>>(a, b);
    bool right = cudaMemcpy(host, b, sizeof host, cudaMemcpyDeviceToHost) == cudaSuccess;
    for (int i = 0; i < 128; ++i) right = right && host[i] == 6;
    return finish(c, right);
  }
  if (!std::strcmp(c, "before_start")) {
    float *a;
    cudaMalloc(&a, 64 * sizeof(float));
    before_start<<<1, 64>>>(a);
    return finish(c, true);
  }
  if (!std::strcmp(c, "float4_past")) {
    float *a, *b;
    cudaMalloc(&a, 1002 * sizeof(float)); // 250.5 float4
    cudaMalloc(&b, 251 * sizeof(float));
    cudaMemset(a, 0, 1002 * sizeof(float));
    float4_past<<<1, 256>>>(a, b, (1002 + 3) / 4);
    return finish(c, true);
  }
  if (!std::strcmp(c, "float4_component_race") || !std::strcmp(c, "float4_component_barrier")) {
    float4 *a, *b;
    cudaMallocManaged(&a, 64 * sizeof(float4));
    cudaMallocManaged(&b, 64 * sizeof(float4));
    for (int i = 0; i < 64; ++i)
      a[i] = make_float4(4.0f * i, 4.0f * i + 1, 4.0f * i + 2, 4.0f * i + 3);
    if (!std::strcmp(c, "float4_component_race"))
      float4_component_race<<<1, 64>>>(a, b);
    else
      float4_component_barrier<<<1, 64>>>(a, b);
    cudaDeviceSynchronize();
    bool right = true;
    for (int i = 0; i < 64; ++i) {
      int j = (i + 32) % 64;
      right = right && b[i].x == 4.0f * j && b[i].y == 4.0f * j + 2 && b[i].w == 4.0f * j + 3;
    }
    return finish(c, right);
  }
  if (!std::strcmp(c, "shared_past")) {
    shared_past<<<1, 64, 32 * sizeof(int)>>>(out);
    return finish(c, true);
  }
  if (!std::strcmp(c, "shared_wrap")) {
    shared_wrap<<<1, 64>>>(out);
    return finish(c, true);
  }
  if (!std::strcmp(c, "after_free")) {
    float *a;
    cudaMalloc(&a, 64 * sizeof(float));
    cudaFree(a);
    after_free<<<1, 64>>>(a);
    return finish(c, true);
  }
  // Freed memory is reused after a quarantine (instrument.cpp): a pointer to a block freed a few
  // frees ago still stops the kernel that uses it, however many blocks of its size came and went
  // since; and a cudaMalloc/cudaFree loop does get its addresses back, never one of the last frees.
  if (!std::strcmp(c, "after_free_recent")) {
    float *a, **holder;
    cudaMalloc(&a, 1024 * sizeof(float));
    cudaFree(a);
    for (int k = 0; k < 8; ++k) { // the same size, taken and freed again: never a's address
      float *b;
      cudaMalloc(&b, 1024 * sizeof(float));
      if (b == a) std::printf("after_free_recent: a freed block came back at once\n");
      after_free<<<1, 64>>>(b);
      cudaFree(b);
    }
    cudaMallocManaged(&holder, sizeof(float *));
    holder[0] = a;
    after_free_through<<<1, 64>>>(holder);
    return finish(c, true);
  }
  if (!std::strcmp(c, "freed_reuse")) {
    const int rounds = 600; // 600 x 4 KiB: past the 2 MiB quarantine
    float *recent[4] = {nullptr, nullptr, nullptr, nullptr};
    float *seen[rounds];
    int distinct = 0;
    bool right = true;
    for (int r = 0; r < rounds; ++r) {
      float *d, h[64];
      cudaMalloc(&d, 1024 * sizeof(float));
      for (float *q : recent) right = right && d != q; // the last 4 frees stay quarantined
      bool old = false;
      for (int k = 0; k < distinct; ++k) old = old || seen[k] == d;
      if (!old) seen[distinct++] = d;
      after_free<<<1, 64>>>(d);
      cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
      right = right && h[0] == 2.0f && h[63] == 2.0f;
      cudaFree(d);
      recent[r % 4] = d;
    }
    if (distinct == rounds) std::printf("freed_reuse: no address was reused\n");
    return finish(c, right && distinct < rounds);
  }
  // Pool memory (pools.cpp): a block used after its cudaFreeAsync, a write past a small block
  // (into what a GPU pads it to, 512 bytes), and a block freed and taken again, used rightly.
  if (!std::strcmp(c, "pool_after_free")) {
    float *a;
    cudaMallocAsync(&a, 64 * sizeof(float), 0);
    cudaFreeAsync(a, 0);
    cudaStreamSynchronize(0);
    after_free<<<1, 64>>>(a);
    return finish(c, true);
  }
  if (!std::strcmp(c, "pool_past")) {
    float *a;
    cudaMallocAsync(&a, 8 * sizeof(float), 0);
    after_free<<<1, 64>>>(a); // 64 threads, 8 floats
    return finish(c, true);
  }
  if (!std::strcmp(c, "pool_reuse")) {
    float *a, *b;
    cudaMallocAsync(&a, 64 * sizeof(float), 0);
    after_free<<<1, 64>>>(a);
    cudaFreeAsync(a, 0);
    cudaMallocAsync(&b, 64 * sizeof(float), 0);
    after_free<<<1, 64>>>(b);
    float h[64];
    cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost);
    bool right = a == b && h[0] == 2.0f && h[63] == 2.0f;
    cudaFreeAsync(b, 0);
    return finish(c, right);
  }
  if (!std::strcmp(c, "shared_uninit")) {
    shared_uninit<<<1, 32>>>(out);
    return finish(c, true);
  }
  if (!std::strcmp(c, "shared_uninit_own")) {
    shared_uninit_own<<<1, 32>>>(out);
    return finish(c, true);
  }
  if (!std::strcmp(c, "shared_blocks_reuse")) {
    shared_blocks_reuse<<<8, 32>>>(out);
    cudaDeviceSynchronize();
    bool right = true;
    for (int i = 0; i < 256; ++i) right = right && out[i] == (i / 32) * 32 + 31 - i % 32;
    return finish(c, right);
  }
  if (!std::strcmp(c, "file_shared_no_barrier")) {
    file_shared_no_barrier<<<1, 64>>>(in, out);
    return finish(c, true);
  }
  if (!std::strcmp(c, "file_shared_uninit")) {
    file_shared_uninit<<<1, 32>>>(out);
    return finish(c, true);
  }
  if (!std::strcmp(c, "epoch_wrap")) {
    wrap_write<<<1, 1>>>(data); // block 0's thread 0 writes data[0]
    for (int k = 0; k < 65534; ++k) wrap_nothing<<<1, 1>>>();
    wrap_read<<<2, 1>>>(data, out); // the same epoch number again: block 1 reads data[0]
    if (cudaDeviceSynchronize() != cudaSuccess || out[1] != 7) return finish(c, false);
    std::printf("no race after the wrap\n");
    wrap_race<<<1, 64>>>(data);
    return finish(c, true);
  }
  if (!std::strcmp(c, "file_shared_barrier")) {
    file_shared_barrier<<<4, 64>>>(in, out);
    cudaDeviceSynchronize();
    bool right = true;
    for (int i = 0; i < 256; ++i) right = right && out[i] == (i / 64) * 64 + 63 - i % 64;
    return finish(c, right);
  }
  if (!std::strcmp(c, "table_reads")) { // read by 4 blocks, written, read again
    table_reads<<<4, 64>>>(data, out);
    if (cudaDeviceSynchronize() != cudaSuccess || out[64 + 10] != 10 + 53) return finish(c, false);
    table_write<<<1, 64>>>(data);
    table_reads<<<4, 64>>>(data, out);
    cudaDeviceSynchronize();
    return finish(c, out[3 * 64 + 10] == 11 + 54 && out[0] == 1 + 64);
  }
  if (!std::strcmp(c, "read_by_blocks_then_write")) {
    read_by_blocks_then_write<<<2, 64>>>(data, out);
    return finish(c, true);
  }
  if (!std::strcmp(c, "table_reads_then_write")) {
    table_reads_then_write<<<4, 64>>>(data, out);
    return finish(c, true);
  }
  if (!std::strcmp(c, "shared_reads_volatile_write")) {
    shared_reads_volatile_write<<<4, 64>>>(data, out);
    return finish(c, true);
  }
  std::fprintf(stderr, "race_cases: unknown case '%s'\n", c);
  return 2;
}
