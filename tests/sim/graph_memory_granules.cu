// The graph memory footprint as a GPU reports it (cudaDeviceGetGraphMemAttribute): what graphs
// allocate is held in whole 32 MiB granules, per stream that launched them, until
// cudaDeviceGraphMemTrim; the high watermarks survive the trim. Every expected number here is what
// an H100 (driver 580.159.04, CUDA 13.0) printed for the same calls on 2026-11-27. Prints
// "graph memory granules: ok" or each number that differs, and exits 1.
#include <cstdio>

#define MiB (1ull << 20)
static const unsigned long long granule = 32 * MiB;
static int failures = 0;

__global__ void touch(char *p, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) p[i] = 1;
}

// Used and reserved, current and high, must all be `current` (the highs `high`).
static void expect(const char *what, unsigned long long current, unsigned long long high) {
  unsigned long long got[4] = {0, 0, 0, 0};
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &got[0]);
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &got[1]);
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &got[2]);
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &got[3]);
  const char *names[4] = {"used", "reserved", "used high", "reserved high"};
  for (int k = 0; k < 4; ++k) {
    unsigned long long want = k < 2 ? current : high;
    if (got[k] != want) {
      printf("FAIL %s: %s %llu, want %llu\n", what, names[k], got[k], want);
      ++failures;
    }
  }
}

static void reset() {
  unsigned long long zero = 0;
  cudaDeviceGraphMemTrim(0);
  cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero);
  cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &zero);
}

// One graph of `count` allocations of `size` bytes, each touched, then freed in the graph
// (freed_inside) or by cudaFree after the launch; it holds `held` bytes once launched.
static void one_graph(size_t size, int count, bool freed_inside, unsigned long long held,
                      cudaStream_t s) {
  char what[96];
  snprintf(what, sizeof what, "%zu bytes x %d, freed %s", size, count,
           freed_inside ? "in the graph" : "by cudaFree");
  reset();
  cudaGraph_t g;
  char *p[4];
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  for (int i = 0; i < count; ++i) {
    cudaMallocAsync((void **)&p[i], size, s);
    touch<<<(unsigned)((size + 255) / 256), 256, 0, s>>>(p[i], size);
  }
  if (freed_inside)
    for (int i = 0; i < count; ++i) cudaFreeAsync(p[i], s);
  cudaStreamEndCapture(s, &g);
  cudaGraphExec_t x;
  cudaGraphInstantiate(&x, g, 0);
  expect(what, 0, 0); // instantiating holds nothing
  cudaGraphLaunch(x, s);
  cudaStreamSynchronize(s);
  expect(what, held, held);
  if (freed_inside) {
    cudaGraphLaunch(x, s); // the same stream: the same memory again
    cudaStreamSynchronize(s);
  } else {
    for (int i = 0; i < count; ++i) cudaFree(p[i]); // freed, still held until a trim
  }
  expect(what, held, held);
  cudaGraphExecDestroy(x);
  cudaGraphDestroy(g);
  expect(what, held, held); // destroyed, still held until a trim
  cudaDeviceGraphMemTrim(0);
  expect(what, 0, held);
}

int main() {
  cudaStream_t s, t;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking);
  one_graph(8192, 1, true, granule, s);
  one_graph(1 * MiB, 1, true, granule, s);
  one_graph(2 * MiB + 1, 1, true, granule, s);
  one_graph(31 * MiB, 1, true, granule, s);
  one_graph(33 * MiB, 1, true, 2 * granule, s);
  one_graph(100 * MiB, 1, true, 4 * granule, s);
  one_graph(8192, 2, true, granule, s);
  one_graph(20 * MiB, 2, true, 2 * granule, s);
  one_graph(8192, 1, false, granule, s);
  one_graph(8192, 3, false, granule, s);

  // Two graphs of 8 KiB, launched on two streams: a granule each, also with the streams swapped.
  reset();
  cudaGraph_t g[2];
  cudaGraphExec_t x[2];
  cudaStream_t stream[2] = {s, t};
  for (int k = 0; k < 2; ++k) {
    char *p;
    cudaStreamBeginCapture(stream[k], cudaStreamCaptureModeGlobal);
    cudaMallocAsync((void **)&p, 8192, stream[k]);
    touch<<<32, 256, 0, stream[k]>>>(p, 8192);
    cudaFreeAsync(p, stream[k]);
    cudaStreamEndCapture(stream[k], &g[k]);
    cudaGraphInstantiate(&x[k], g[k], 0);
  }
  cudaGraphLaunch(x[0], s);
  cudaGraphLaunch(x[1], t);
  cudaDeviceSynchronize();
  expect("two graphs on two streams", 2 * granule, 2 * granule);
  cudaGraphLaunch(x[0], t);
  cudaGraphLaunch(x[1], s);
  cudaDeviceSynchronize();
  expect("two graphs, streams swapped", 2 * granule, 2 * granule);
  for (int k = 0; k < 2; ++k) {
    cudaGraphExecDestroy(x[k]);
    cudaGraphDestroy(g[k]);
  }
  cudaDeviceGraphMemTrim(0);
  expect("two graphs, trimmed", 0, 2 * granule);
  cudaStreamDestroy(s);
  cudaStreamDestroy(t);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    printf("FAIL an API call failed: %s\n", cudaGetErrorString(e));
    ++failures;
  }
  if (failures) return 1;
  printf("graph memory granules: ok\n");
  return 0;
}
