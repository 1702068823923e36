// Device memory freed with cudaFree may come back from malloc as host memory (on the simulator
// both live in one process). Copies into and out of such a host buffer must work: only a pointer
// the program means as device memory is reported as freed.
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main() {
  const size_t bytes = 1024;
  int failures = 0, reused = 0;
  for (int attempt = 0; attempt < 64; ++attempt) {
    void *d_old = nullptr, *d_new = nullptr;
    cudaMalloc(&d_old, bytes);
    cudaMalloc(&d_new, bytes);
    cudaMemset(d_new, 7, bytes);
    cudaFree(d_old);
    unsigned char *host = (unsigned char *)malloc(bytes);
    reused += host == d_old;
    cudaError_t to_host = cudaMemcpy(host, d_new, bytes, cudaMemcpyDeviceToHost);
    cudaError_t to_device = cudaMemcpy(d_new, host, bytes, cudaMemcpyHostToDevice);
    cudaError_t by_default = cudaMemcpy(host, d_new, bytes, cudaMemcpyDefault);
    if (to_host != cudaSuccess || to_device != cudaSuccess || by_default != cudaSuccess ||
        host[0] != 7 || host[bytes - 1] != 7)
      ++failures;
    free(host);
    cudaFree(d_new);
  }
  printf("%d of 64 host buffers reused a freed device address; %d copies failed\n", reused,
         failures);
  printf(failures ? "FAIL\n" : "PASS\n");
  return failures ? 1 : 0;
}
