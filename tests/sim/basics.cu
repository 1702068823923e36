// Correct programs must give a GPU's results: launches, built-ins, shared memory, barriers, warp
// functions, atomics, symbols, streams, events, pools. Prints each failed check; exit 1 if any.
#include <cooperative_groups.h>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

extern "C" int capi_checks(void);

static int failures = 0;
#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::printf("FAILED: %s (line %d)\n", #cond, __LINE__);                                      \
      failures++;                                                                                  \
    }                                                                                              \
  } while (0)

__constant__ float coefficients[4];
__device__ int device_counter;

__global__ void index_3d(int *out) {
  int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  int nthreads = blockDim.x * blockDim.y * blockDim.z;
  out[b * nthreads + t] = b * 1000 + t;
}

__global__ void block_sum(const int *in, int *out) {
  extern __shared__ int buffer[];
  __shared__ int total;
  unsigned t = threadIdx.x;
  buffer[t] = in[blockIdx.x * blockDim.x + t];
  if (t == 0) total = 0;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) buffer[t] += buffer[t + s];
    __syncthreads();
  }
  if (t == 0) total = buffer[0];
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = total;
}

__global__ void barrier_votes(int *out) {
  int t = threadIdx.x;
  int count = __syncthreads_count(t % 3 == 0);
  int all = __syncthreads_and(t < 1000);
  int any = __syncthreads_or(t == 77);
  int all2 = __syncthreads_and(t != 5);
  if (t == 0) { // (every thread gets the same results; one writes them, so there is no race)
    out[0] = count;
    out[1] = all;
    out[2] = any;
    out[3] = all2;
  }
}

__global__ void warp_functions(int *out, float *fout) {
  int t = threadIdx.x;
  int lane = t & 31;
  unsigned ballot = __ballot_sync(0xffffffffu, lane % 2 == 0);
  int any = __any_sync(0xffffffffu, lane == 3);
  int all = __all_sync(0xffffffffu, lane < 32);
  int none = __all_sync(0xffffffffu, lane < 31);
  int from0 = __shfl_sync(0xffffffffu, t * 10, 0);
  int up = __shfl_up_sync(0xffffffffu, t, 1);
  int down8 = __shfl_down_sync(0xffffffffu, t, 1, 8);
  int x = __shfl_xor_sync(0xffffffffu, t, 1);
  double dv = __shfl_sync(0xffffffffu, (double)t + 0.5, 31);
  float sum = (float)lane;
  for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o);
  __syncwarp();
  out[t * 8 + 0] = (int)ballot;
  out[t * 8 + 1] = any;
  out[t * 8 + 2] = all * 2 + none;
  out[t * 8 + 3] = from0;
  out[t * 8 + 4] = up;
  out[t * 8 + 5] = down8;
  out[t * 8 + 6] = x;
  out[t * 8 + 7] = (int)(dv * 2);
  fout[t] = sum;
}

__global__ void atomics(int *i, unsigned *u, unsigned long long *ull, float *f, double *d) {
  atomicAdd(&i[0], 1);
  atomicSub(&i[1], 2);
  atomicMax(&i[2], (int)threadIdx.x);
  atomicMin(&i[3], -(int)threadIdx.x);
  atomicOr(&i[4], 1 << (threadIdx.x % 31));
  atomicXor(&i[5], 1);
  atomicAnd(&i[6], ~(1 << (threadIdx.x % 8)));
  atomicInc(&u[0], 9u);
  atomicDec(&u[1], 9u);
  atomicCAS(&u[2], 0u, threadIdx.x + 1);
  atomicAdd(&ull[0], 1ull << 33);
  atomicExch(&u[3], 42u);
  atomicAdd(&f[0], 0.5f);
  atomicAdd(&d[0], 0.25);
  atomicAdd(&device_counter, 1);
}

__global__ void use_constant(float *out) {
  out[threadIdx.x] = coefficients[threadIdx.x % 4];
}

template <typename T, int Scale> __global__ void scale(T *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= Scale;
}

// __activemask() in divergent code: the lanes that took the branch (as on a GPU), and a
// coalesced group there that shuffles within those lanes.
__global__ void masks_in_branches(unsigned *mask, int *from_leader) {
  unsigned t = threadIdx.x;
  if (t % 2) {
    mask[t] = __activemask();
    auto g = cooperative_groups::coalesced_threads();
    from_leader[t] = g.shfl((int)t * 10, 0);
  } else if (t % 4 == 0) {
    mask[t] = __activemask();
    from_leader[t] = -1;
  } else {
    return;
  }
}

static void CUDART_CB host_callback(void *data) {
  *(int *)data = 7;
}

int main() {
  failures += capi_checks();

  // Built-ins over a 3D grid of 3D blocks.
  {
    dim3 grid(2, 3, 2), block(4, 2, 3);
    int n = 12 * 24;
    int *out;
    cudaMallocManaged(&out, n * sizeof(int));
    index_3d<<<grid, block>>>(out);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    bool ok = true;
    for (int i = 0; i < n; ++i) ok = ok && out[i] == (i / 24) * 1000 + i % 24;
    CHECK(ok);
    cudaFree(out);
  }
  // Dynamic and static shared memory, a barrier in a loop, several blocks.
  {
    int threads = 256, blocks = 40, n = threads * blocks;
    int *in, *out;
    cudaMallocManaged(&in, n * sizeof(int));
    cudaMallocManaged(&out, n * sizeof(int));
    for (int i = 0; i < n; ++i) in[i] = i % 7;
    block_sum<<<blocks, threads, threads * sizeof(int)>>>(in, out);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    bool ok = true;
    for (int b = 0; b < blocks; ++b) {
      int want = 0;
      for (int t = 0; t < threads; ++t) want += in[b * threads + t];
      for (int t = 0; t < threads; ++t) ok = ok && out[b * threads + t] == want;
    }
    CHECK(ok);
    cudaFree(in);
    cudaFree(out);
  }
  // __syncthreads_count/_and/_or.
  {
    int *out;
    cudaMallocManaged(&out, 4 * sizeof(int));
    barrier_votes<<<1, 100>>>(out);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(out[0] == 34);
    CHECK(out[1] == 1);
    CHECK(out[2] == 1);
    CHECK(out[3] == 0);
    cudaFree(out);
  }
  // Warp functions.
  {
    int *out;
    float *fout;
    cudaMallocManaged(&out, 64 * 8 * sizeof(int));
    cudaMallocManaged(&fout, 64 * sizeof(float));
    warp_functions<<<1, 64>>>(out, fout);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    bool ok = true;
    for (int t = 0; t < 64; ++t) {
      int lane = t & 31, base = t & ~31;
      const int *o = out + t * 8;
      ok = ok && (unsigned)o[0] == 0x55555555u && o[1] == 1 && o[2] == 2;
      ok = ok && o[3] == base * 10 && o[4] == (lane >= 1 ? t - 1 : t);
      ok = ok && o[5] == ((lane % 8) + 1 < 8 ? t + 1 : t) && o[6] == (t ^ 1);
      ok = ok && o[7] == (int)((base + 31 + 0.5) * 2) && fout[t] == 496.0f;
      if (!ok) {
        std::printf("warp functions: thread %d: %x %d %d %d %d %d %d %d %g\n", t, o[0], o[1], o[2],
                    o[3], o[4], o[5], o[6], o[7], fout[t]);
        break;
      }
    }
    CHECK(ok);
    cudaFree(out);
    cudaFree(fout);
  }
  // Atomics from many blocks at once (blocks run on several host threads).
  {
    int *i;
    unsigned *u;
    unsigned long long *ull;
    float *f;
    double *d;
    cudaMallocManaged(&i, 7 * sizeof(int));
    cudaMallocManaged(&u, 4 * sizeof(unsigned));
    cudaMallocManaged(&ull, sizeof(unsigned long long));
    cudaMallocManaged(&f, sizeof(float));
    cudaMallocManaged(&d, sizeof(double));
    int init[7] = {0, 0, -1, 0, 0, 0, 0xff};
    std::memcpy(i, init, sizeof init);
    u[0] = 0;
    u[1] = 0;
    u[2] = 0;
    u[3] = 0;
    *ull = 0;
    *f = 0;
    *d = 0;
    int zero = 0;
    CHECK(cudaMemcpyToSymbol(device_counter, &zero, sizeof zero) == cudaSuccess);
    atomics<<<64, 128>>>(i, u, ull, f, d);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    int n = 64 * 128;
    CHECK(i[0] == n);
    CHECK(i[1] == -2 * n);
    CHECK(i[2] == 127);
    CHECK(i[3] == -127);
    CHECK(i[4] == 0x7fffffff);
    CHECK(i[5] == 0);
    CHECK(i[6] == 0);
    CHECK(u[0] == (unsigned)(n % 10));
    CHECK(u[2] >= 1 && u[2] <= 128);
    CHECK(u[3] == 42u);
    CHECK(*ull == (unsigned long long)n << 33);
    CHECK(*f == 0.5f * n);
    CHECK(*d == 0.25 * n);
    int counted = 0;
    CHECK(cudaMemcpyFromSymbol(&counted, device_counter, sizeof counted) == cudaSuccess);
    CHECK(counted == n);
    cudaFree(i);
    cudaFree(u);
    cudaFree(ull);
    cudaFree(f);
    cudaFree(d);
  }
  // __constant__ memory; uninitialized shared memory reads as NaN.
  {
    float c[4] = {1, 2, 3, 4};
    CHECK(cudaMemcpyToSymbol(coefficients, c, sizeof c) == cudaSuccess);
    float *out;
    cudaMallocManaged(&out, 8 * sizeof(float));
    use_constant<<<1, 8>>>(out);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(out[0] == 1 && out[5] == 2 && out[7] == 4);
    cudaFree(out);
  }
  // Templates with explicit arguments; a literal 0 stream.
  {
    int n = 1000;
    float *x;
    cudaMallocManaged(&x, n * sizeof(float));
    for (int k = 0; k < n; ++k) x[k] = 1.5f;
    scale<float, 4><<<(n + 127) / 128, 128, 0, 0>>>(x, n);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(x[0] == 6.0f && x[n - 1] == 6.0f);
    cudaFree(x);
  }
  // Streams, async copies, events, host functions: all in order. Under ThreadSanitizer (the
  // sim-race preset) 4,096 elements: each CUDA thread is a TSan fiber, and 65,536 of them took
  // 60 of this test's 94 s of CPU there; the order of the stream's work is the same.
  {
#if defined(CUSIM_TSAN)
    int n = 1 << 12;
#else
    int n = 1 << 16;
#endif
    float *h, *dv;
    cudaMallocHost(&h, n * sizeof(float));
    cudaMalloc(&dv, n * sizeof(float));
    for (int k = 0; k < n; ++k) h[k] = 2.0f;
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    int flag = 0;
    cudaEventRecord(start, s);
    cudaMemcpyAsync(dv, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
    scale<float, 3><<<n / 256, 256, 0, s>>>(dv, n);
    cudaMemcpyAsync(h, dv, n * sizeof(float), cudaMemcpyDeviceToHost, s);
    CHECK(h[0] == 2.0f); // nothing ran yet
    // A host function lets the stream run up to it without a wait (the progress thread), so
    // from here on the copies may be done; the event after it is not reached before a wait.
    cudaLaunchHostFunc(s, host_callback, &flag);
    cudaEventRecord(stop, s);
    float ms = -1;
    CHECK(cudaEventElapsedTime(&ms, start, stop) == cudaErrorNotReady); // not reached yet
    CHECK(cudaStreamSynchronize(s) == cudaSuccess);
    CHECK(h[0] == 6.0f && h[n - 1] == 6.0f && flag == 7);
    CHECK(cudaEventElapsedTime(&ms, start, stop) == cudaSuccess && ms >= 0.0f);
    CHECK(cudaEventQuery(stop) == cudaSuccess);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaStreamDestroy(s);
    cudaFreeHost(h);
    cudaFree(dv);
  }
  // 2D copies with pitch.
  {
    float *dv;
    size_t pitch = 0;
    float h[4][5], back[4][5];
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 5; ++c) h[r][c] = (float)(r * 10 + c);
    CHECK(cudaMallocPitch(&dv, &pitch, 5 * sizeof(float), 4) == cudaSuccess &&
          pitch >= 5 * sizeof(float));
    CHECK(cudaMemcpy2D(dv, pitch, h, 5 * sizeof(float), 5 * sizeof(float), 4,
                       cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaMemcpy2D(back, 5 * sizeof(float), dv, pitch, 5 * sizeof(float), 4,
                       cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(std::memcmp(h, back, sizeof h) == 0);
    cudaFree(dv);
  }
  // Memory pools: freed blocks are reused; the attributes report true numbers.
  {
    cudaMemPool_t pool;
    CHECK(cudaDeviceGetDefaultMemPool(&pool, 0) == cudaSuccess);
    uint64_t threshold = UINT64_MAX;
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold) ==
          cudaSuccess);
    void *a = nullptr, *b = nullptr;
    CHECK(cudaMallocAsync(&a, 1 << 20, 0) == cudaSuccess);
    uint64_t used = 0, reserved = 0;
    cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used);
    CHECK(used == 1 << 20);
    CHECK(cudaFreeAsync(a, 0) == cudaSuccess);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used);
    cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved);
    CHECK(used == 0 && reserved == 32 << 20); // a whole 32 MiB granule (a GPU: seen)
    CHECK(cudaMallocAsync(&b, 1 << 20, 0) == cudaSuccess);
    CHECK(a == b); // reused
    cudaFreeAsync(b, 0);
    cudaDeviceSynchronize();
    CHECK(cudaMemPoolTrimTo(pool, 0) == cudaSuccess);
    cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved);
    CHECK(reserved == 0);
    threshold = 0;
    cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
  }
  // Occupancy and function attributes.
  {
    int min_grid = 0, block = 0, per_sm = 0;
    CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, scale<float, 4>) == cudaSuccess &&
          block > 0 && min_grid > 0);
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, scale<float, 4>, 256, 0) ==
              cudaSuccess &&
          per_sm == 8);
    // A block of more than 1024 threads: no block fits, and the call succeeds (an H200: 0).
    per_sm = -1;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, scale<float, 4>, 2048, 0) ==
              cudaSuccess &&
          per_sm == 0);
    // Shared memory in units of 128 bytes plus 1 KiB reserved per block, as on an H100: 10000 bytes
    // take 10112 + 1024, so 233472 / 11136 = 20 blocks (21 without the rounding).
    int reserved = 0;
    CHECK(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, 0) ==
              cudaSuccess &&
          reserved == 1024);
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, scale<float, 4>, 64, 10000) ==
              cudaSuccess &&
          per_sm == 20);
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, scale<float, 4>) == cudaSuccess &&
          attr.maxThreadsPerBlock == 1024);
  }
  CHECK(cudaGetLastError() == cudaSuccess);
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  // __activemask() and coalesced groups inside branches (two warps, the second one partial).
  {
    unsigned *mask;
    int *from_leader;
    cudaMallocManaged(&mask, 48 * sizeof(unsigned));
    cudaMallocManaged(&from_leader, 48 * sizeof(int));
    for (int i = 0; i < 48; ++i) mask[i] = 0, from_leader[i] = 0;
    masks_in_branches<<<1, 48>>>(mask, from_leader);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    bool ok = true;
    for (int i = 0; i < 48; ++i) {
      unsigned want = i % 2        ? (i < 32 ? 0xaaaaaaaau : 0x0000aaaau)
                      : i % 4 == 0 ? (i < 32 ? 0x11111111u : 0x00001111u)
                                   : 0u;
      int leader = i % 2 ? (i < 32 ? 10 : 330) : i % 4 == 0 ? -1 : 0;
      if (mask[i] != want || from_leader[i] != leader) {
        std::printf(
            "masks_in_branches: thread %d: mask 0x%08x (want 0x%08x), leader value %d (want %d)\n",
            i, mask[i], want, from_leader[i], leader);
        ok = false;
      }
    }
    CHECK(ok);
    cudaFree(mask);
    cudaFree(from_leader);
  }
  return failures ? 1 : 0;
}
