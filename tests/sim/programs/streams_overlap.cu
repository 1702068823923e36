// Overlapping copies and kernels: the data is cut into chunks, and each chunk's copy in, kernel
// and copy out go to one of several streams, from pinned host memory, so that one chunk's copy
// can run while another's kernel does. Events time the whole pipeline.
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>

#define STREAMS 4

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL %s:%d: %s\\n", __FILE__, __LINE__, cudaGetErrorString(err_));                   \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

__global__ void transform(float *data, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) {
    float x = data[i];
    data[i] = sqrtf(x * x + 1.0f) + 2.0f * x;
  }
}

int main(void) {
  const int n = 1 << 20;
  const int chunks = 16;
  const int chunk = n / chunks;
  float *host;
  float *device;
  CHECK(cudaMallocHost(&host, n * sizeof(float)));
  CHECK(cudaMalloc(&device, n * sizeof(float)));
  for (int i = 0; i < n; ++i) {
    host[i] = (float)(i % 1000) / 100.0f;
  }

  cudaStream_t streams[STREAMS];
  for (int s = 0; s < STREAMS; ++s) {
    CHECK(cudaStreamCreate(&streams[s]));
  }
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));

  CHECK(cudaEventRecord(start, 0));
  for (int c = 0; c < chunks; ++c) {
    cudaStream_t stream = streams[c % STREAMS];
    int offset = c * chunk;
    CHECK(cudaMemcpyAsync(device + offset, host + offset, chunk * sizeof(float),
                          cudaMemcpyHostToDevice, stream));
    transform<<<(chunk + 255) / 256, 256, 0, stream>>>(device + offset, chunk);
    CHECK(cudaMemcpyAsync(host + offset, device + offset, chunk * sizeof(float),
                          cudaMemcpyDeviceToHost, stream));
  }
  CHECK(cudaEventRecord(stop, 0));
  CHECK(cudaEventSynchronize(stop));
  float milliseconds = 0.0f;
  CHECK(cudaEventElapsedTime(&milliseconds, start, stop));

  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    float x = (float)(i % 1000) / 100.0f;
    float expected = sqrtf(x * x + 1.0f) + 2.0f * x;
    if (fabsf(host[i] - expected) > 1e-5f * expected) {
      ++wrong;
    }
  }
  for (int s = 0; s < STREAMS; ++s) {
    CHECK(cudaStreamDestroy(streams[s]));
  }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaFreeHost(host));
  CHECK(cudaFree(device));
  if (wrong != 0 || !(milliseconds >= 0.0f)) {
    printf("FAIL streams_overlap: %d wrong, %f ms\n", wrong, milliseconds);
    return 1;
  }
  printf("PASS streams_overlap\n");
  return 0;
}
