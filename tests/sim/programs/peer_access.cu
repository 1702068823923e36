// Peer-to-peer access as multi-GPU programs probe it (NVIDIA's simpleP2P): with one device, no
// pair of devices has peer access (CUDA answers that a device is not its own peer), a device that
// does not exist is an error, and cudaMemcpyPeer between device 0 and itself is a plain copy.
#include <cuda_runtime.h>
#include <stdio.h>

int main(void) {
  int count = 0, can = -1, wrong = 0;
  cudaGetDeviceCount(&count);
  cudaError_t self = cudaDeviceCanAccessPeer(&can, 0, 0);
  if (self != cudaSuccess || can != 0) {
    printf("FAIL peer_access: device 0 and itself: %s, %d\n", cudaGetErrorString(self), can);
    wrong++;
  }
  if (cudaDeviceCanAccessPeer(&can, 0, count) != cudaErrorInvalidDevice) {
    printf("FAIL peer_access: device %d does not exist\n", count);
    wrong++;
  }
  cudaGetLastError(); // the expected error above
  int host[4] = {1, 2, 3, 4}, back[4] = {0, 0, 0, 0};
  int *a, *b;
  cudaMalloc(&a, sizeof host);
  cudaMalloc(&b, sizeof host);
  cudaMemcpy(a, host, sizeof host, cudaMemcpyHostToDevice);
  cudaError_t sync_copy = cudaMemcpyPeer(b, 0, a, 0, sizeof host);
  cudaError_t async_copy = cudaMemcpyPeerAsync(a, 0, b, 0, sizeof host, 0);
  cudaMemcpy(back, a, sizeof back, cudaMemcpyDeviceToHost);
  if (sync_copy != cudaSuccess || async_copy != cudaSuccess || back[3] != 4) {
    printf("FAIL peer_access: cudaMemcpyPeer: %s, %s, %d\n", cudaGetErrorString(sync_copy),
           cudaGetErrorString(async_copy), back[3]);
    wrong++;
  }
  cudaFree(a);
  cudaFree(b);
  if (wrong == 0) {
    printf("PASS peer_access: no peer among %d device(s)\n", count);
  }
  return wrong != 0;
}
