// The stream-ordered pool behaves as CUDA documents it: memory freed by cudaFreeAsync is reused
// at once by later allocations in stream order; it cannot go back to the system while its free
// is still queued; cudaMemPoolTrimTo keeps at least minBytesToKeep reserved; the release
// threshold applies at a synchronization. The pool maps memory in 32 MiB granules and places
// blocks in them at 512-byte steps, so a 1 MiB block reserves 32 MiB (CUDA 13.0, driver 580, on an
// H200: seen), and a trim gives back only granules that hold no block.
#include <cstdio>

static int failures = 0;
static void expect(bool ok, const char *what, unsigned long long got) {
  printf("%-62s %s (%llu)\n", what, ok ? "ok" : "WRONG", got);
  if (!ok) ++failures;
}

static unsigned long long attribute(cudaMemPool_t pool, cudaMemPoolAttr which) {
  unsigned long long value = 0;
  cudaMemPoolGetAttribute(pool, which, &value);
  return value;
}

int main() {
  const unsigned long long mib = 1 << 20, granule = 32 * mib;
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaMemPool_t pool;
  cudaDeviceGetDefaultMemPool(&pool, 0);
  unsigned long long keep_everything = ~0ULL;
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_everything);

  void *first = nullptr, *block = nullptr;
  bool same = true;
  for (int i = 0; i < 4; ++i) {
    cudaMallocAsync(&block, mib, stream);
    if (i == 0) first = block;
    same = same && block == first;
    cudaFreeAsync(block, stream);
  }
  expect(same, "a block freed in stream order is reused by the next allocation", same);
  cudaMemPoolTrimTo(pool, 0);
  expect(attribute(pool, cudaMemPoolAttrReservedMemCurrent) == granule,
         "a block whose free is still queued is not released by a trim",
         attribute(pool, cudaMemPoolAttrReservedMemCurrent));
  cudaStreamSynchronize(stream);
  expect(attribute(pool, cudaMemPoolAttrUsedMemHigh) == mib, "used high is one block",
         attribute(pool, cudaMemPoolAttrUsedMemHigh));
  expect(attribute(pool, cudaMemPoolAttrUsedMemCurrent) == 0, "used is 0 after the frees",
         attribute(pool, cudaMemPoolAttrUsedMemCurrent));
  cudaMemPoolTrimTo(pool, 0);
  expect(attribute(pool, cudaMemPoolAttrReservedMemCurrent) == 0,
         "after the synchronize, a trim to 0 releases it",
         attribute(pool, cudaMemPoolAttrReservedMemCurrent));

  void *a, *b, *c;
  cudaMallocAsync(&a, mib, stream);
  cudaMallocAsync(&b, mib, stream);
  cudaMallocAsync(&c, mib, stream);
  cudaFreeAsync(a, stream);
  cudaFreeAsync(b, stream);
  cudaFreeAsync(c, stream);
  cudaStreamSynchronize(stream);
  cudaMemPoolTrimTo(pool, 3 * mib / 2);
  expect(attribute(pool, cudaMemPoolAttrReservedMemCurrent) == granule,
         "TrimTo(1.5 MiB) with three idle 1 MiB blocks keeps their granule",
         attribute(pool, cudaMemPoolAttrReservedMemCurrent));

  unsigned long long threshold = mib / 2;
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
  cudaStreamSynchronize(stream);
  expect(attribute(pool, cudaMemPoolAttrReservedMemCurrent) <= threshold,
         "a synchronize releases down to the release threshold",
         attribute(pool, cudaMemPoolAttrReservedMemCurrent));

  cudaStreamDestroy(stream);
  printf(failures ? "FAIL\n" : "PASS\n");
  return failures ? 1 : 0;
}
