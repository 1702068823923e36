// Runtime calls that NVIDIA's samples make and a course's programs rarely do. Peer-to-peer access
// as multi-GPU programs probe it (simpleP2P): with one device, no pair of devices has peer access
// (CUDA answers that a device is not its own peer), a device that does not exist is an error,
// and cudaMemcpyPeer between device 0 and itself is a plain copy. cudaStreamAttachMemAsync
// (UnifiedMemoryPerf) attaches managed memory to a stream, and refuses to attach it singly to
// the NULL stream. An L2 access policy window on a stream (simpleAttributes) is kept and read back,
// and a window larger than the device's maximum refused. Device 0 reads and writes its own pool
// (cudaMemPoolSetAccess, cudaMemPoolGetAccess).
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  int count = 0, can = -1, wrong = 0;
  cudaGetDeviceCount(&count);
  cudaError_t self = cudaDeviceCanAccessPeer(&can, 0, 0);
  if (self != cudaSuccess || can != 0) {
    printf("FAIL runtime_apis: device 0 and itself: %s, %d\n", cudaGetErrorString(self), can);
    wrong++;
  }
  if (cudaDeviceCanAccessPeer(&can, 0, count) != cudaErrorInvalidDevice) {
    printf("FAIL runtime_apis: device %d does not exist\n", count);
    wrong++;
  }
  cudaGetLastError(); // the expected error above
  // A pool's access from a device (streamOrderedAllocationP2P): device 0 owns the default pool and
  // reads and writes it.
  cudaMemPool_t pool;
  cudaDeviceGetDefaultMemPool(&pool, 0);
  cudaMemAccessDesc access;
  memset(&access, 0, sizeof access);
  access.location.type = cudaMemLocationTypeDevice;
  access.location.id = 0;
  access.flags = cudaMemAccessFlagsProtReadWrite;
  cudaError_t set_access = cudaMemPoolSetAccess(pool, &access, 1);
  cudaMemAccessFlags flags = cudaMemAccessFlagsProtNone;
  cudaError_t get_access = cudaMemPoolGetAccess(&flags, pool, &access.location);
  if (set_access != cudaSuccess || get_access != cudaSuccess ||
      flags != cudaMemAccessFlagsProtReadWrite) {
    printf("FAIL runtime_apis: pool access of device 0: %s, %s, %d\n",
           cudaGetErrorString(set_access), cudaGetErrorString(get_access), (int)flags);
    wrong++;
  }
  int host[4] = {1, 2, 3, 4}, back[4] = {0, 0, 0, 0};
  int *a, *b;
  cudaMalloc(&a, sizeof host);
  cudaMalloc(&b, sizeof host);
  cudaMemcpy(a, host, sizeof host, cudaMemcpyHostToDevice);
  cudaError_t sync_copy = cudaMemcpyPeer(b, 0, a, 0, sizeof host);
  cudaError_t async_copy = cudaMemcpyPeerAsync(a, 0, b, 0, sizeof host, 0);
  cudaMemcpy(back, a, sizeof back, cudaMemcpyDeviceToHost);
  if (sync_copy != cudaSuccess || async_copy != cudaSuccess || back[3] != 4) {
    printf("FAIL runtime_apis: cudaMemcpyPeer: %s, %s, %d\n", cudaGetErrorString(sync_copy),
           cudaGetErrorString(async_copy), back[3]);
    wrong++;
  }
  int *managed;
  cudaStream_t stream;
  cudaMallocManaged(&managed, sizeof host);
  cudaStreamCreate(&stream);
  cudaError_t attached = cudaStreamAttachMemAsync(stream, managed, 0, cudaMemAttachSingle);
  cudaError_t synced = cudaStreamSynchronize(stream);
  managed[0] = 7; // attached to a stream that is idle: the host may touch it
  cudaError_t null_single = cudaStreamAttachMemAsync(0, managed, 0, cudaMemAttachSingle);
  cudaGetLastError(); // the expected error
  if (attached != cudaSuccess || synced != cudaSuccess || null_single != cudaErrorInvalidValue) {
    printf("FAIL runtime_apis: cudaStreamAttachMemAsync: %s, %s, %s\n",
           cudaGetErrorString(attached), cudaGetErrorString(synced),
           cudaGetErrorString(null_single));
    wrong++;
  }
  // An L2 access policy window on a stream (simpleAttributes): kept, read back, checked.
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  cudaError_t limit =
      cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, prop.persistingL2CacheMaxSize);
  cudaStreamAttrValue window, back_value;
  memset(&window, 0, sizeof window);
  window.accessPolicyWindow.base_ptr = managed;
  window.accessPolicyWindow.num_bytes = sizeof host;
  window.accessPolicyWindow.hitRatio = 0.5f;
  window.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  window.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  cudaError_t set = cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &window);
  cudaError_t got =
      cudaStreamGetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &back_value);
  window.accessPolicyWindow.num_bytes = (size_t)prop.accessPolicyMaxWindowSize + 1; // too large
  cudaError_t bad = cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &window);
  cudaGetLastError(); // the expected error
  cudaError_t reset = cudaCtxResetPersistingL2Cache();
  if (limit != cudaSuccess || set != cudaSuccess || got != cudaSuccess ||
      bad != cudaErrorInvalidValue || reset != cudaSuccess ||
      back_value.accessPolicyWindow.base_ptr != managed ||
      back_value.accessPolicyWindow.hitRatio != 0.5f) {
    printf("FAIL runtime_apis: access policy window: %s, %s, %s, %s, %s\n",
           cudaGetErrorString(limit), cudaGetErrorString(set), cudaGetErrorString(got),
           cudaGetErrorString(bad), cudaGetErrorString(reset));
    wrong++;
  }
  cudaStreamDestroy(stream);
  cudaFree(managed);
  cudaFree(a);
  cudaFree(b);
  if (wrong == 0) {
    printf("PASS runtime_apis: no peer among %d device(s)\n", count);
  }
  return wrong != 0;
}
