// Host callbacks on a stream fire in stream order, after the work queued before them, without
// the host synchronizing: the host here spins on a flag the last callback sets (CUDA does not
// require a synchronizing call for a callback to run).
#include <atomic>
#include <chrono>
#include <cstdio>

static std::atomic<int> order{0};
static std::atomic<int> done{0};
static int first_seen = -1, second_seen = -1, sum_seen = -1;
static int *host_values = NULL; // pinned; the copy before the callback filled it

__global__ void fill(int *values, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) values[i] = i;
}

static void CUDART_CB first_callback(cudaStream_t, cudaError_t status, void *) {
  first_seen = status == cudaSuccess ? order.fetch_add(1) : -2;
}

static void CUDART_CB sum_values(void *data) {
  int n = *(int *)data, sum = 0;
  for (int i = 0; i < n; i++) sum += host_values[i];
  sum_seen = sum;
  second_seen = order.fetch_add(1);
  done.store(1);
}

int main() {
  const int n = 1000;
  int *d_values = NULL;
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaMalloc((void **)&d_values, n * sizeof(int));
  cudaMallocHost((void **)&host_values, n * sizeof(int));
  static int count = n;
  fill<<<(n + 255) / 256, 256, 0, stream>>>(d_values, n);
  cudaStreamAddCallback(stream, first_callback, NULL, 0);
  cudaMemcpyAsync(host_values, d_values, n * sizeof(int), cudaMemcpyDeviceToHost, stream);
  cudaLaunchHostFunc(stream, sum_values, &count);
  // No CUDA call until the flag is set: the callbacks must fire on their own.
  auto start = std::chrono::steady_clock::now();
  while (!done.load()) {
    if (std::chrono::steady_clock::now() - start > std::chrono::seconds(20)) {
      printf("FAIL stream_callbacks: the host function did not run within 20 s without a "
             "synchronizing call\n");
      return 1;
    }
  }
  int want = n * (n - 1) / 2;
  cudaStreamSynchronize(stream);
  cudaStreamDestroy(stream);
  cudaFreeHost(host_values);
  cudaFree(d_values);
  if (first_seen != 0 || second_seen != 1 || sum_seen != want) {
    printf("FAIL stream_callbacks: order %d, %d (want 0, 1); sum %d (want %d)\n", first_seen,
           second_seen, sum_seen, want);
    return 1;
  }
  printf("PASS stream_callbacks\n");
  return 0;
}
