// libcu++'s block barrier and asynchronous copies, as the CUDA Programming Guide shows them:
// cuda::barrier with arrive/wait tokens, arrive_and_wait, arrive_and_drop and a completion
// function; cuda::pipeline (thread scope) with cuda::memcpy_async and cuda::aligned_size_t;
// cuda::memcpy_async completed by a barrier; the cp.async primitives of <cuda_pipeline.h>
// (__pipeline_memcpy_async with zero fill, __pipeline_commit, __pipeline_wait_prior); and
// cooperative groups' memcpy_async and wait. Every kernel checks values a CPU loop computes.
//
// With an argument, one kernel makes a mistake the simulator's memory checker stops (on a GPU
// the answer is merely unreliable): `read-before-wait` reads a memcpy_async destination before
// consumer_wait(); `other-before-sync` reads another thread's copy after only its own wait;
// `overlap` issues a second copy into a destination still in flight; `missing-wait` drops a
// barrier token and reads a neighbour's value without waiting;
// `deadlock` initialises a barrier for one thread more than the block has; `stale-copy-site` races
// by a plain write on bytes an earlier block copied into (the report must name the plain write).
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>
#include <utility>

namespace cg = cooperative_groups;

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));                    \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

#define THREADS 128
#define TILES 4
#define PHASES 3

typedef cuda::barrier<cuda::thread_scope_block> block_barrier;

// Each phase: every thread writes its slot, arrives, waits with its token, then reads its right
// neighbour's slot; a second arrive_and_wait keeps the next phase's writes after those reads.
__global__ void phases(int *out) {
  __shared__ block_barrier bar;
  __shared__ int slot[THREADS];
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  int sum = 0;
  for (int p = 0; p < PHASES; ++p) {
    slot[threadIdx.x] = (p + 1) * 1000 + (int)threadIdx.x;
    block_barrier::arrival_token token = bar.arrive();
    bar.wait(std::move(token));
    sum += slot[(threadIdx.x + 1) % THREADS];
    bar.arrive_and_wait();
  }
  out[blockIdx.x * THREADS + threadIdx.x] = sum;
}

// Threads of odd index drop out after the first phase; the rest go on, so the barrier's count
// falls to half and their later phases complete without them.
__global__ void drop_half(int *out) {
  __shared__ block_barrier bar;
  __shared__ int slot[THREADS];
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  slot[threadIdx.x] = (int)threadIdx.x;
  bar.arrive_and_wait();
  int got = slot[THREADS - 1 - threadIdx.x];
  if (threadIdx.x % 2 == 1) {
    out[threadIdx.x] = got;
    bar.arrive_and_drop();
    return;
  }
  bar.arrive_and_wait(); // the reads of slot come before the writes below
  slot[threadIdx.x] = 2 * (int)threadIdx.x;
  bar.arrive_and_wait();
  out[threadIdx.x] = got + slot[(threadIdx.x + 2) % THREADS];
}

// A completion function runs once per phase, after the last arrival and before any thread goes
// on: it counts the phases in shared memory, which every thread then reads.
struct count_phase {
  int *count;
  __device__ void operator()() noexcept { *count += 1; }
};
__global__ void completion(int *out) {
  __shared__ cuda::barrier<cuda::thread_scope_block, count_phase> bar;
  __shared__ int count;
  if (threadIdx.x == 0) {
    count = 0;
    init(&bar, blockDim.x, count_phase{&count});
  }
  __syncthreads();
  int seen = 0;
  for (int p = 0; p < PHASES; ++p) {
    bar.arrive_and_wait();
    seen = seen * 10 + count;
    bar.arrive_and_wait();
  }
  out[threadIdx.x] = seen; // 1, 3, 5 phases completed when read: 135
}

// Double buffering with a thread's own pipeline: tile t + 1 is copied while tile t is summed.
// Each thread copies one float4 of each tile; the sum reads the whole tile, so a __syncthreads()
// follows each wait, and another keeps a buffer's next copy after the reads of it.
__global__ void pipelined_sum(const float *in, float *out) {
  __shared__ alignas(float4) float buf[2][THREADS * 4]; // alignas(type), as the samples write it
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const cuda::aligned_size_t<16> shape(sizeof(float4));
  float sum = 0.0f;
  pipe.producer_acquire();
  cuda::memcpy_async(&buf[0][threadIdx.x * 4], &in[threadIdx.x * 4], shape, pipe);
  pipe.producer_commit();
  for (int t = 0; t < TILES; ++t) {
    if (t + 1 < TILES) {
      pipe.producer_acquire();
      cuda::memcpy_async(&buf[(t + 1) % 2][threadIdx.x * 4],
                         &in[(t + 1) * THREADS * 4 + threadIdx.x * 4], shape, pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    __syncthreads();
    for (int k = 0; k < 4; ++k) sum += buf[t % 2][((threadIdx.x + 1) % THREADS) * 4 + k];
    pipe.consumer_release();
    __syncthreads();
  }
  out[threadIdx.x] = sum;
}

// Copies completed by a barrier: every thread copies its element of the tile, then
// arrive_and_wait completes the phase and with it every copy made for it.
__global__ void barrier_copy(const int *in, int *out) {
  __shared__ block_barrier bar;
  __shared__ int tile[THREADS];
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  cuda::memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], sizeof(int), bar);
  bar.arrive_and_wait();
  out[threadIdx.x] = tile[THREADS - 1 - threadIdx.x];
}

// The cp.async primitives: 16-byte copies in two batches, the second with its last 8 bytes
// zero-filled; __pipeline_wait_prior(1) waits for the first batch only, then (0) for both.
__global__ void primitives(const int *in, int *out) {
  __shared__ alignas(alignof(int4)) int a[THREADS * 4], b[THREADS * 4]; // alignas(expression)
  __pipeline_memcpy_async(&a[threadIdx.x * 4], &in[threadIdx.x * 4], 16);
  __pipeline_commit();
  __pipeline_memcpy_async(&b[threadIdx.x * 4], &in[threadIdx.x * 4], 16, 8);
  __pipeline_commit();
  __pipeline_wait_prior(1);
  __syncthreads();
  int first = a[((threadIdx.x + 3) % THREADS) * 4 + 1];
  __pipeline_wait_prior(0);
  __syncthreads();
  int j = ((threadIdx.x + 5) % THREADS) * 4;
  out[threadIdx.x] = first + b[j] + b[j + 1] + b[j + 2] + b[j + 3];
}

// Cooperative groups: the block copies a tile together and waits for it.
__global__ void group_copy(const int *in, int *out) {
  __shared__ int tile[THREADS];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in, sizeof(int) * THREADS);
  cg::wait(block);
  out[threadIdx.x] = tile[(threadIdx.x + 7) % THREADS] * 2;
}

// ---- mistakes (an argument picks one) ----------------------------------------------------------
// A thread reads its own copy's destination before consumer_wait().
__global__ void read_before_wait(const int *in, int *out) {
  __shared__ int tile[THREADS];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], sizeof(int), pipe);
  pipe.producer_commit();
  int early = tile[threadIdx.x]; // the copy may not be there yet
  pipe.consumer_wait();
  out[threadIdx.x] = early + tile[threadIdx.x];
}

// A thread's consumer_wait() covers its own copies only: reading another thread's needs a
// __syncthreads() after the waits.
__global__ void other_before_sync(const int *in, int *out) {
  __shared__ int tile[THREADS];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], sizeof(int), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  out[threadIdx.x] = threadIdx.x > 0 ? tile[threadIdx.x - 1] : 0; // no __syncthreads() first
}

// Two stages in flight into one buffer: the second copy may land before or after the first.
__global__ void overlap(const int *in, int *out) {
  __shared__ int tile[THREADS];
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], sizeof(int));
  __pipeline_commit();
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[THREADS + threadIdx.x], sizeof(int));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[threadIdx.x] = tile[threadIdx.x];
}

// The token is dropped: nothing waits before reading the neighbour's slot.
__global__ void missing_wait(int *out) {
  __shared__ block_barrier bar;
  __shared__ int slot[THREADS];
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  slot[threadIdx.x] = (int)threadIdx.x;
  (void)bar.arrive();
  out[threadIdx.x] = slot[(threadIdx.x + 1) % THREADS];
}

// Block 0 copies into tile[0] with memcpy_async and waits: right. Block 1, on the same worker
// (CUSIM_THREADS=1) and so on the same __shared__ bytes, writes tile[0] plainly and reads it from
// another thread with no __syncthreads(): a data race by a plain write, which the report must not
// blame on block 0's finished copy.
__global__ void stale_copy_site(const int *in, int *out) {
  __shared__ int tile[THREADS];
  if (blockIdx.x == 0) {
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    pipe.producer_acquire();
    cuda::memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], sizeof(int), pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    out[threadIdx.x] = tile[threadIdx.x];
    return;
  }
  if (threadIdx.x == 0) tile[0] = 7;
  if (threadIdx.x == 1) out[THREADS + 1] = tile[0]; // no __syncthreads() first
}

// One arrival more is expected than the block has threads: the phase never completes.
__global__ void deadlock(int *out) {
  __shared__ block_barrier bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x + 1);
  __syncthreads();
  bar.arrive_and_wait();
  out[threadIdx.x] = 1;
}

static int mistake(const char *name, const int *d_in, int *d_out) {
  if (strcmp(name, "read-before-wait") == 0) {
    read_before_wait<<<1, THREADS>>>(d_in, d_out);
  } else if (strcmp(name, "other-before-sync") == 0) {
    other_before_sync<<<1, THREADS>>>(d_in, d_out);
  } else if (strcmp(name, "overlap") == 0) {
    overlap<<<1, THREADS>>>(d_in, d_out);
  } else if (strcmp(name, "missing-wait") == 0) {
    missing_wait<<<1, THREADS>>>(d_out);
  } else if (strcmp(name, "stale-copy-site") == 0) {
    stale_copy_site<<<2, THREADS>>>(d_in, d_out);
  } else if (strcmp(name, "deadlock") == 0) {
    deadlock<<<1, THREADS>>>(d_out);
  } else {
    printf("FAIL: unknown argument %s\n", name);
    return 1;
  }
  cudaError_t err = cudaDeviceSynchronize();
  printf("%s: %s\n", name, err == cudaSuccess ? "no error" : "the kernel failed");
  return 0;
}

static int expect(const char *what, const int *got, const int *want, int n) {
  for (int i = 0; i < n; ++i) {
    if (got[i] != want[i]) {
      printf("FAIL %s: element %d is %d, expected %d\n", what, i, got[i], want[i]);
      return 1;
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  static int h_in[TILES * THREADS * 4], h_out[2 * THREADS], want[2 * THREADS];
  static float h_fin[TILES * THREADS * 4], h_fout[THREADS];
  for (int i = 0; i < TILES * THREADS * 4; ++i) {
    h_in[i] = 3 * i + 1;
    h_fin[i] = (float)(i % 17);
  }
  int *d_in, *d_out;
  float *d_fin, *d_fout;
  CHECK(cudaMalloc(&d_in, sizeof h_in));
  CHECK(cudaMalloc(&d_out, sizeof h_out));
  CHECK(cudaMalloc(&d_fin, sizeof h_fin));
  CHECK(cudaMalloc(&d_fout, sizeof h_fout));
  CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_fin, h_fin, sizeof h_fin, cudaMemcpyHostToDevice));
  if (argc > 1) {
    int status = mistake(argv[1], d_in, d_out);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_fin);
    cudaFree(d_fout);
    return status;
  }
  int failed = 0;

  phases<<<2, THREADS>>>(d_out);
  CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 2 * THREADS; ++i) want[i] = 6000 + PHASES * ((i % THREADS + 1) % THREADS);
  failed |= expect("phases", h_out, want, 2 * THREADS);

  drop_half<<<1, THREADS>>>(d_out);
  CHECK(cudaMemcpy(h_out, d_out, THREADS * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < THREADS; ++i)
    want[i] = (THREADS - 1 - i) + (i % 2 == 1 ? 0 : 2 * ((i + 2) % THREADS));
  failed |= expect("arrive_and_drop", h_out, want, THREADS);

  completion<<<1, THREADS>>>(d_out);
  CHECK(cudaMemcpy(h_out, d_out, THREADS * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < THREADS; ++i) want[i] = 135;
  failed |= expect("completion", h_out, want, THREADS);

  pipelined_sum<<<1, THREADS>>>(d_fin, d_fout);
  CHECK(cudaMemcpy(h_fout, d_fout, sizeof h_fout, cudaMemcpyDeviceToHost));
  for (int i = 0; i < THREADS; ++i) {
    float sum = 0.0f; // the same order of additions as the kernel's
    for (int t = 0; t < TILES; ++t)
      for (int k = 0; k < 4; ++k) sum += h_fin[t * THREADS * 4 + ((i + 1) % THREADS) * 4 + k];
    if (h_fout[i] != sum && !failed) {
      printf("FAIL pipeline: element %d is %g, expected %g\n", i, h_fout[i], sum);
      failed = 1;
    }
  }

  barrier_copy<<<1, THREADS>>>(d_in, d_out);
  CHECK(cudaMemcpy(h_out, d_out, THREADS * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < THREADS; ++i) want[i] = h_in[THREADS - 1 - i];
  failed |= expect("memcpy_async with a barrier", h_out, want, THREADS);

  primitives<<<1, THREADS>>>(d_in, d_out);
  CHECK(cudaMemcpy(h_out, d_out, THREADS * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < THREADS; ++i) {
    int j = ((i + 5) % THREADS) * 4;
    want[i] = h_in[((i + 3) % THREADS) * 4 + 1] + h_in[j] + h_in[j + 1];
  }
  failed |= expect("__pipeline_memcpy_async", h_out, want, THREADS);

  group_copy<<<1, THREADS>>>(d_in, d_out);
  CHECK(cudaMemcpy(h_out, d_out, THREADS * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < THREADS; ++i) want[i] = 2 * h_in[(i + 7) % THREADS];
  failed |= expect("cg::memcpy_async", h_out, want, THREADS);

  CHECK(cudaGetLastError());
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_fin));
  CHECK(cudaFree(d_fout));
  printf("%s async_barriers\n", failed ? "FAIL" : "PASS");
  return failed;
}
