// Streams are as concurrent as a GPU's, or more: `sim_stream_order CASE` runs one case and prints
// what it saw; tests/sim/CMakeLists.txt checks each case's output.
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

__global__ void set_to(int *data, int n, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = value;
}

enum { N = 256 };

// Atomics on one counter from two streams cannot lose an update: not a race.
__global__ void count_up(int *count) {
  atomicAdd(count, 1);
}

// Through __shared__ memory, which every block of every launch reuses: not a stream's bytes.
__global__ void set_via_shared(int *data, int value) {
  __shared__ int staged[N];
  staged[threadIdx.x] = value;
  __syncthreads();
  data[threadIdx.x] = staged[N - 1 - threadIdx.x];
}

// Work on a stream nobody waited for is not done when the host reads after syncing another.
static int unsynced(void) {
  int *d, *h;
  cudaStream_t a, b;
  cudaMalloc(&d, N * sizeof(int));
  cudaMallocHost(&h, N * sizeof(int));
  memset(h, 0, N * sizeof(int));
  cudaStreamCreate(&a);
  cudaStreamCreate(&b);
  set_to<<<1, N, 0, a>>>(d, N, 7);
  cudaMemcpyAsync(h, d, N * sizeof(int), cudaMemcpyDeviceToHost, a);
  set_to<<<1, N, 0, b>>>(d + N / 2, 0, 1); // nothing to do with h
  cudaStreamSynchronize(b);
  printf("after syncing the other stream: %d\n", h[0]);
  cudaStreamSynchronize(a);
  printf("after syncing its stream: %d\n", h[0]);
  return 0;
}

// An event orders a copy on one stream after a kernel on another: honoured, no race reported.
static int event_dependency(int with_event) {
  int *d, *h;
  cudaStream_t a, b;
  cudaEvent_t done;
  cudaMalloc(&d, N * sizeof(int));
  cudaMallocHost(&h, N * sizeof(int));
  cudaStreamCreate(&a);
  cudaStreamCreate(&b);
  cudaEventCreate(&done);
  cudaMemsetAsync(d, 0, N * sizeof(int), a);
  set_to<<<1, N, 0, a>>>(d, N, 5);
  cudaEventRecord(done, a);
  if (with_event) cudaStreamWaitEvent(b, done, 0);
  cudaError_t copied = cudaMemcpyAsync(h, d, N * sizeof(int), cudaMemcpyDeviceToHost, b);
  printf("cudaMemcpyAsync -> %s\n", cudaGetErrorName(copied));
  cudaError_t synced = cudaStreamSynchronize(b);
  printf("cudaStreamSynchronize(b) -> %s, h[0] = %d\n", cudaGetErrorName(synced), h[0]);
  return 0;
}

// The legacy default stream waits for blocking streams; cudaStreamNonBlocking streams go on.
static int blocking_vs_non_blocking(void) {
  int *d, *h;
  cudaStream_t blocking, non_blocking;
  cudaMalloc(&d, 2 * N * sizeof(int));
  cudaMallocHost(&h, N * sizeof(int));
  cudaStreamCreate(&blocking);
  cudaStreamCreateWithFlags(&non_blocking, cudaStreamNonBlocking);
  set_to<<<1, N, 0, blocking>>>(d, N, 1);
  set_to<<<1, N, 0, non_blocking>>>(d + N, N, 2);
  int value = 0;
  cudaMemcpy(&value, d + N - 1, sizeof(int), cudaMemcpyDeviceToHost); // waits for `blocking`
  printf("blocking stream before cudaMemcpy: %d\n", value);
  cudaMemcpy(&value, d + 2 * N - 1, sizeof(int), cudaMemcpyDeviceToHost); // not for the other
  printf("non-blocking stream before cudaMemcpy: %d\n", value == 2 ? 2 : 0);
  cudaDeviceSynchronize();
  cudaMemcpy(&value, d + 2 * N - 1, sizeof(int), cudaMemcpyDeviceToHost);
  printf("non-blocking stream after cudaDeviceSynchronize: %d\n", value);
  return 0;
}

// A polling loop on cudaStreamQuery/cudaEventQuery ends: queries make progress.
static int query_loop(void) {
  int *d;
  cudaStream_t s;
  cudaEvent_t e;
  cudaMalloc(&d, N * sizeof(int));
  cudaStreamCreate(&s);
  cudaEventCreate(&e);
  for (int k = 0; k < 10; ++k) set_to<<<1, N, 0, s>>>(d, N, k);
  cudaEventRecord(e, s);
  int polls = 0;
  while (cudaEventQuery(e) == cudaErrorNotReady) ++polls;
  printf("event polls: %s\n", polls > 0 ? "several" : "none");
  for (int k = 0; k < 10; ++k) set_to<<<1, N, 0, s>>>(d, N, k);
  polls = 0;
  while (cudaStreamQuery(s) == cudaErrorNotReady) ++polls;
  printf("stream polls: %s; cudaStreamQuery -> %s\n", polls > 0 ? "several" : "none",
         cudaGetErrorName(cudaStreamQuery(s)));
  return 0;
}

// A host function runs in stream order, after the kernel before it; events time the work between.
static void CUDART_CB look(void *data) {
  printf("host function sees: %d\n", *(int *)data);
}
static int host_fn_and_timing(void) {
  int *m;
  cudaStream_t s;
  cudaEvent_t start, stop;
  cudaMallocManaged(&m, N * sizeof(int), cudaMemAttachGlobal);
  cudaStreamCreate(&s);
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  m[0] = 0;
  cudaEventRecord(start, s);
  for (int k = 1; k <= 200; ++k) set_to<<<64, N, 0, s>>>(m, N, k);
  printf("before the wait: %d\n", m[0]);
  // Queuing a host function lets the stream run up to it without a wait (the progress thread).
  cudaLaunchHostFunc(s, look, m);
  cudaEventRecord(stop, s);
  cudaEventSynchronize(stop);
  float ms = -1;
  cudaError_t e = cudaEventElapsedTime(&ms, start, stop);
  printf("cudaEventElapsedTime -> %s, %s\n", cudaGetErrorName(e),
         ms > 0 ? "positive" : "not positive");
  return 0;
}

// Stream 0 and a blocking stream: the legacy default stream waits for it; with
// CUDA_API_PER_THREAD_DEFAULT_STREAM (nvcc --default-stream per-thread) stream 0 does not.
static int default_stream(void) {
  int *d;
  cudaStream_t blocking;
  cudaMalloc(&d, 2 * N * sizeof(int));
  cudaStreamCreate(&blocking);
  set_to<<<1, N, 0, blocking>>>(d, N, 1);
  set_to<<<1, N>>>(d + N, N, 3);
  int value = 0;
  cudaMemcpy(&value, d + 2 * N - 1, sizeof(int), cudaMemcpyDeviceToHost);
  printf("stream 0: %d\n", value);
  cudaMemcpy(&value, d + N - 1, sizeof(int), cudaMemcpyDeviceToHost);
  printf("blocking stream before cudaMemcpy: %d\n", value == 1 ? 1 : 0);
  return 0;
}

// Lesson 10's old driver: cudaMemset (the legacy default stream) and then a kernel on a
// cudaStreamNonBlocking stream, both on d, nothing ordering them. On an H200 the memset came out
// on top every time; the simulator reports the race when the kernel runs. The variants order the
// two (the same stream, a blocking stream, an event, a device-wide wait) and must run silent.
static int memset_then_kernel(const char *how) {
  int *d, *h;
  cudaStream_t s;
  cudaEvent_t set;
  cudaMalloc(&d, N * sizeof(int));
  cudaMallocHost(&h, N * sizeof(int));
  cudaStreamCreateWithFlags(&s, strcmp(how, "blocking") ? cudaStreamNonBlocking : 0);
  cudaEventCreate(&set);
  if (!strcmp(how, "same_stream"))
    cudaMemsetAsync(d, 0xFF, N * sizeof(int), s);
  else
    cudaMemset(d, 0xFF, N * sizeof(int));
  if (!strcmp(how, "event")) {
    cudaEventRecord(set, 0);
    cudaStreamWaitEvent(s, set, 0);
  }
  if (!strcmp(how, "device_sync")) cudaDeviceSynchronize();
  set_to<<<1, N, 0, s>>>(d, N, 7);
  cudaError_t synced = cudaStreamSynchronize(s);
  cudaError_t copied = cudaMemcpy(h, d, N * sizeof(int), cudaMemcpyDeviceToHost);
  printf("cudaStreamSynchronize -> %s, cudaMemcpy -> %s, h[0] = %d\n", cudaGetErrorName(synced),
         cudaGetErrorName(copied), h[0]);
  cudaEventDestroy(set);
  cudaStreamDestroy(s);
  cudaFreeHost(h);
  cudaFree(d);
  return 0;
}

// The other way round: the kernel first, on a non-blocking stream, then cudaMemset; and a
// kernel that touches other bytes of the same allocation (no race: silent).
static int kernel_then_memset(int same_bytes) {
  int *d, *h;
  cudaStream_t s;
  cudaMalloc(&d, 2 * N * sizeof(int));
  cudaMallocHost(&h, N * sizeof(int));
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  set_to<<<1, N, 0, s>>>(same_bytes ? d : d + N, N, 7);
  cudaMemset(d, 0, N * sizeof(int));
  cudaMemcpy(h, d, N * sizeof(int), cudaMemcpyDeviceToHost); // runs the memset, not the kernel
  cudaError_t synced = cudaDeviceSynchronize();
  printf("cudaDeviceSynchronize -> %s\n", cudaGetErrorName(synced));
  cudaStreamDestroy(s);
  cudaFreeHost(h);
  cudaFree(d);
  return 0;
}

// A copy on one non-blocking stream reads what a kernel on another writes, no event between.
static int copy_vs_kernel(void) {
  int *d, *h;
  cudaStream_t a, b;
  cudaMalloc(&d, N * sizeof(int));
  cudaMallocHost(&h, N * sizeof(int));
  cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking);
  cudaMemcpyAsync(h, d, N * sizeof(int), cudaMemcpyDeviceToHost, a);
  set_to<<<1, N, 0, b>>>(d + 8, 4, 1);
  cudaError_t synced = cudaDeviceSynchronize();
  printf("cudaDeviceSynchronize -> %s\n", cudaGetErrorName(synced));
  return 0;
}

// Two kernels on two non-blocking streams, nothing between them: the same bytes race; other
// bytes of one allocation (lesson 06's chunks) or an event between them run silent.
static int kernel_vs_kernel(const char *how) {
  int *d;
  cudaStream_t a, b;
  cudaEvent_t first;
  cudaMalloc(&d, 2 * N * sizeof(int));
  cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking);
  cudaEventCreate(&first);
  if (!strcmp(how, "shared")) {
    set_via_shared<<<1, N, 0, a>>>(d, 1);
    set_via_shared<<<1, N, 0, b>>>(d + N, 2);
  } else if (!strcmp(how, "atomic")) {
    cudaMemset(d, 0, sizeof(int));
    cudaDeviceSynchronize();
    count_up<<<2, N, 0, a>>>(d);
    count_up<<<2, N, 0, b>>>(d);
  } else {
    set_to<<<1, N, 0, a>>>(d, N, 1);
    cudaEventRecord(first, a);
    if (!strcmp(how, "event")) cudaStreamWaitEvent(b, first, 0);
    set_to<<<1, N, 0, b>>>(strcmp(how, "other_bytes") ? d + N / 2 : d + N, N, 2);
  }
  cudaError_t synced = cudaDeviceSynchronize();
  printf("cudaDeviceSynchronize -> %s\n", cudaGetErrorName(synced));
  cudaEventDestroy(first);
  cudaStreamDestroy(a);
  cudaStreamDestroy(b);
  cudaFree(d);
  return 0;
}

int main(int argc, char **argv) {
  const char *c = argc > 1 ? argv[1] : "";
  if (!strcmp(c, "unsynced")) return unsynced();
  if (!strcmp(c, "event")) return event_dependency(1);
  if (!strcmp(c, "no_event")) return event_dependency(0);
  if (!strcmp(c, "blocking")) return blocking_vs_non_blocking();
  if (!strcmp(c, "query")) return query_loop();
  if (!strcmp(c, "default_stream")) return default_stream();
  if (!strcmp(c, "host_fn")) return host_fn_and_timing();
  if (!strcmp(c, "memset_vs_nonblocking_kernel")) return memset_then_kernel("non_blocking");
  if (!strcmp(c, "memset_same_stream")) return memset_then_kernel("same_stream");
  if (!strcmp(c, "memset_blocking_stream")) return memset_then_kernel("blocking");
  if (!strcmp(c, "memset_event")) return memset_then_kernel("event");
  if (!strcmp(c, "memset_device_sync")) return memset_then_kernel("device_sync");
  if (!strcmp(c, "nonblocking_kernel_vs_memset")) return kernel_then_memset(1);
  if (!strcmp(c, "nonblocking_kernel_other_bytes")) return kernel_then_memset(0);
  if (!strcmp(c, "copy_vs_kernel")) return copy_vs_kernel();
  if (!strcmp(c, "kernel_vs_kernel")) return kernel_vs_kernel("none");
  if (!strcmp(c, "kernel_vs_kernel_other_bytes")) return kernel_vs_kernel("other_bytes");
  if (!strcmp(c, "kernel_vs_kernel_event")) return kernel_vs_kernel("event");
  if (!strcmp(c, "kernel_vs_kernel_shared")) return kernel_vs_kernel("shared");
  if (!strcmp(c, "kernel_vs_kernel_atomic")) return kernel_vs_kernel("atomic");
  fprintf(stderr, "usage: sim_stream_order CASE (see main in stream_order.cu)\n");
  return 2;
}
