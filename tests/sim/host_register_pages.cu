// cudaHostRegister as the driver answers it (CUDA 13.0, driver 580, on an H200: seen): ranges are
// byte ranges, not pages. Two arrays that share a page but not a byte both register; a range that
// overlaps one registered before fails with cudaErrorHostMemoryAlreadyRegistered; unregistering
// takes the start of a registered range (an address inside one is cudaErrorInvalidValue, one in
// none cudaErrorHostMemoryNotRegistered), and frees the range for another registration.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
static int failures = 0;
static void expect(const char *what, cudaError_t got, cudaError_t want) {
  if (got != want) {
    std::printf("FAIL: %s -> %s, want %s\n", what, cudaGetErrorName(got), cudaGetErrorName(want));
    ++failures;
  } else {
    std::printf("ok: %s -> %s\n", what, cudaGetErrorName(got));
  }
  cudaGetLastError();
}
int main() {
  const size_t page = 65536; // a whole number of pages of 4 KiB or 64 KiB
  char *block = static_cast<char *>(std::aligned_alloc(page, 4 * page));
  // Two 800-byte arrays in one page, as two small mallocs often are.
  char *first = block, *second = block + 2048;
  expect("register the first array", cudaHostRegister(first, 800, cudaHostRegisterDefault),
         cudaSuccess);
  expect("register the second, on the same page",
         cudaHostRegister(second, 800, cudaHostRegisterDefault), cudaSuccess);
  expect("register a range that overlaps the first",
         cudaHostRegister(first + 400, 800, cudaHostRegisterDefault),
         cudaErrorHostMemoryAlreadyRegistered);
  expect("register the first again", cudaHostRegister(first, 800, cudaHostRegisterDefault),
         cudaErrorHostMemoryAlreadyRegistered);
  expect("register a range inside the first",
         cudaHostRegister(first + 100, 100, cudaHostRegisterDefault),
         cudaErrorHostMemoryAlreadyRegistered);
  expect("register a range on its own pages",
         cudaHostRegister(block + 2 * page, page, cudaHostRegisterDefault), cudaSuccess);
  expect("unregister an address inside the first", cudaHostUnregister(first + 100),
         cudaErrorInvalidValue);
  expect("unregister the first", cudaHostUnregister(first), cudaSuccess);
  expect("register the overlapping range, now free",
         cudaHostRegister(first + 400, 800, cudaHostRegisterDefault), cudaSuccess);
  expect("unregister what was never registered", cudaHostUnregister(block + page),
         cudaErrorHostMemoryNotRegistered);
  expect("unregister the second", cudaHostUnregister(second), cudaSuccess);
  expect("unregister the second again", cudaHostUnregister(second),
         cudaErrorHostMemoryNotRegistered);
  expect("unregister the overlapping range", cudaHostUnregister(first + 400), cudaSuccess);
  expect("unregister the range", cudaHostUnregister(block + 2 * page), cudaSuccess);
  std::free(block);
  std::printf(failures ? "FAIL\n" : "PASS\n");
  return failures ? 1 : 0;
}
