// What a stream-ordered pool reports, number for number as an H200 reported it (CUDA 13.0, driver
// 580, the probe of 2026-11-26): memory is reserved in 32 MiB granules, blocks lie one after
// another at 512-byte steps (a block larger than what is left extends the reservation by whole
// granules), used counts the bytes asked, and a trim gives back only granules that hold no block in
// use or with its free queued, never going below minBytesToKeep.
//   pool_granules          the device's default pool (the GPU's numbers)
//   pool_granules created  the same on a pool made by cudaMemPoolCreate (the simulator gives it
//                          the default pool's granule; a GPU's answer is recorded, not checked)
// The GPU placed the second block of each pair 512-byte steps after the first; the simulator
// keeps blocks apart (its memory checker puts a gap between them), so addresses are not checked.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

static int failures = 0;
static void expect(const char *what, unsigned long long got, unsigned long long want) {
  if (got != want) {
    std::printf("FAIL: %s: %llu, want %llu\n", what, got, want);
    ++failures;
  } else {
    std::printf("ok: %s: %llu\n", what, got);
  }
}

static unsigned long long attribute(cudaMemPool_t pool, cudaMemPoolAttr which) {
  unsigned long long value = 0;
  cudaMemPoolGetAttribute(pool, which, &value);
  return value;
}
static unsigned long long reserved(cudaMemPool_t pool) {
  return attribute(pool, cudaMemPoolAttrReservedMemCurrent);
}
static unsigned long long used(cudaMemPool_t pool) {
  return attribute(pool, cudaMemPoolAttrUsedMemCurrent);
}

int main(int argc, char **argv) {
  const unsigned long long mib = 1ULL << 20;
  bool created = argc > 1 && std::strcmp(argv[1], "created") == 0;
  cudaMemPool_t pool;
  if (created) {
    cudaMemPoolProps props;
    std::memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    if (cudaMemPoolCreate(&pool, &props) != cudaSuccess) {
      std::printf("FAIL: cudaMemPoolCreate\n");
      return 1;
    }
  } else {
    cudaDeviceGetDefaultMemPool(&pool, 0);
  }
  unsigned long long keep = ~0ULL;
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);

  // size, reserved after one block, after a second
  const struct {
    unsigned long long size, first, second;
  } pairs[] = {
      {8, 32 * mib, 32 * mib},
      {mib, 32 * mib, 32 * mib},
      {2 * mib + 1, 32 * mib, 32 * mib},
      {31 * mib, 32 * mib, 64 * mib},
      {32 * mib, 32 * mib, 64 * mib},
      {32 * mib + 1, 64 * mib, 96 * mib}, // the second follows the first, 32 MiB + 512 on
      {33 * mib, 64 * mib, 96 * mib},
      {63 * mib, 64 * mib, 128 * mib},
      {100 * mib, 128 * mib, 224 * mib},
      {1000 * mib, 1024 * mib, 2016 * mib},
  };
  char what[80];
  for (const auto &pair : pairs) {
    void *p = nullptr, *q = nullptr;
    cudaMallocFromPoolAsync(&p, pair.size, pool, 0);
    cudaStreamSynchronize(0);
    std::snprintf(what, sizeof what, "alloc %llu: reserved", pair.size);
    expect(what, reserved(pool), pair.first);
    std::snprintf(what, sizeof what, "alloc %llu: used", pair.size);
    expect(what, used(pool), pair.size);
    cudaMallocFromPoolAsync(&q, pair.size, pool, 0);
    cudaStreamSynchronize(0);
    std::snprintf(what, sizeof what, "a second %llu: reserved", pair.size);
    expect(what, reserved(pool), pair.second);
    std::snprintf(what, sizeof what, "a second %llu: used", pair.size);
    expect(what, used(pool), 2 * pair.size);
    cudaFreeAsync(p, 0);
    cudaFreeAsync(q, 0);
    cudaStreamSynchronize(0);
    std::snprintf(what, sizeof what, "both freed, synced: reserved");
    expect(what, reserved(pool), pair.second);
    expect("both freed, synced: used", used(pool), 0);
    cudaMemPoolTrimTo(pool, 0);
    expect("then TrimTo(0): reserved", reserved(pool), 0);
  }

  void *a[40];
  for (int i = 0; i < 40; ++i) cudaMallocFromPoolAsync(&a[i], mib, pool, 0);
  cudaStreamSynchronize(0);
  expect("40 x 1 MiB: reserved", reserved(pool), 64 * mib);
  for (int i = 0; i < 40; ++i)
    if (i != 35) cudaFreeAsync(a[i], 0);
  cudaStreamSynchronize(0);
  cudaMemPoolTrimTo(pool, 0);
  expect("all but the 36th freed, TrimTo(0): reserved", reserved(pool), 32 * mib);
  expect("all but the 36th freed, TrimTo(0): used", used(pool), mib);
  cudaFreeAsync(a[35], 0);
  cudaStreamSynchronize(0);
  cudaMemPoolTrimTo(pool, 3 * mib / 2);
  expect("the 36th freed too, TrimTo(1.5 MiB): reserved", reserved(pool), 32 * mib);
  cudaMemPoolTrimTo(pool, 0);
  expect("then TrimTo(0): reserved", reserved(pool), 0);

  void *x = nullptr;
  cudaMallocFromPoolAsync(&x, mib, pool, 0);
  cudaFreeAsync(x, 0);
  cudaMemPoolTrimTo(pool, 0);
  expect("1 MiB, its free queued, TrimTo(0): reserved", reserved(pool), 32 * mib);
  cudaStreamSynchronize(0);
  cudaMemPoolTrimTo(pool, 0);
  expect("after a sync, TrimTo(0): reserved", reserved(pool), 0);
  expect("reserved high", attribute(pool, cudaMemPoolAttrReservedMemHigh), 2016 * mib);
  expect("used high", attribute(pool, cudaMemPoolAttrUsedMemHigh), 2000 * mib);

  if (created) cudaMemPoolDestroy(pool);
  std::printf(failures ? "FAIL\n" : "PASS\n");
  return failures ? 1 : 0;
}
