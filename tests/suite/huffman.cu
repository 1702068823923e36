// Variable-length encoding, as a Huffman encoder packs its codes: each thread packs the codes of
// its own run of symbols, most significant bit first, into 32-bit words. Codes are 1 to 32 bits
// long, and the code's mask is (1u << len) - 1: for a 32-bit code that is a shift by the type's
// width. C leaves it undefined; the shl.b32 that nvcc emits clamps the amount, so a GPU gives 0,
// and the mask is all ones, which is what the encoder means. (On x86 1u << 32 is 1, and the mask
// would be 0.) The CPU reference spells the GPU's rule out. Prints one PASS or FAIL line.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define SYMBOLS 256
#define PER_THREAD 64
#define THREADS 128
#define BLOCKS 8
#define COUNT (THREADS * BLOCKS * PER_THREAD)
#define WORDS_PER_THREAD PER_THREAD // at most 32 bits a symbol

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL huffman: %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__);         \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

__global__ void encode(const unsigned char *symbols, const unsigned *codes, const int *lengths,
                       unsigned *out, int *bits) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned char *in = symbols + t * PER_THREAD;
  unsigned *words = out + t * WORDS_PER_THREAD;
  unsigned cur = 0;
  int used = 0, k = 0, total = 0;
  for (int i = 0; i < PER_THREAD; i++) {
    int len = lengths[in[i]];
    unsigned code = codes[in[i]] & ((1u << len) - 1); // len == 32: a GPU's mask is all ones
    int room = 32 - used;
    total += len;
    if (len < room) {
      cur = (cur << len) | code;
      used += len;
    } else {
      int over = len - room;
      cur = (cur << room) | (code >> over);
      words[k++] = cur;
      cur = code & ((1u << over) - 1);
      used = over;
    }
  }
  if (used > 0) words[k++] = cur << (32 - used);
  bits[t] = total;
}

// What the GPU computes, in C without undefined behaviour.
static unsigned mask_of(int len) {
  return len >= 32 ? 0xFFFFFFFFu : (1u << len) - 1;
}
static unsigned shift_left(unsigned x, int n) {
  return n >= 32 ? 0u : x << n;
}

static int encode_cpu(const unsigned char *in, const unsigned *codes, const int *lengths,
                      unsigned *words) {
  unsigned cur = 0;
  int used = 0, k = 0, total = 0;
  for (int i = 0; i < PER_THREAD; i++) {
    int len = lengths[in[i]];
    unsigned code = codes[in[i]] & mask_of(len);
    int room = 32 - used;
    total += len;
    if (len < room) {
      cur = shift_left(cur, len) | code;
      used += len;
    } else {
      int over = len - room;
      cur = shift_left(cur, room) | (code >> over);
      words[k++] = cur;
      cur = code & mask_of(over);
      used = over;
    }
  }
  if (used > 0) words[k++] = shift_left(cur, 32 - used);
  return total;
}

int main(void) {
  unsigned codes[SYMBOLS];
  int lengths[SYMBOLS];
  unsigned seed = 99u;
  for (int s = 0; s < SYMBOLS; s++) {
    seed = seed * 1664525u + 1013904223u;
    codes[s] = seed ^ (seed << 7);
    lengths[s] = 1 + (int)((seed >> 11) % 32);
  }
  // The rare symbols get the longest codes: every 32-bit one appears.
  for (int s = 240; s < SYMBOLS; s++) lengths[s] = 32;
  unsigned char *symbols = (unsigned char *)malloc(COUNT);
  for (int i = 0; i < COUNT; i++) {
    seed = seed * 1664525u + 1013904223u;
    symbols[i] = (unsigned char)(seed >> 24);
  }
  size_t words_size = (size_t)COUNT * sizeof(unsigned);
  unsigned *out = (unsigned *)calloc(COUNT, sizeof(unsigned));
  unsigned *expected = (unsigned *)calloc(COUNT, sizeof(unsigned));
  int *bits = (int *)malloc(THREADS * BLOCKS * sizeof(int));

  unsigned char *d_symbols;
  unsigned *d_codes, *d_out;
  int *d_lengths, *d_bits;
  CHECK(cudaMalloc((void **)&d_symbols, COUNT));
  CHECK(cudaMalloc((void **)&d_codes, sizeof codes));
  CHECK(cudaMalloc((void **)&d_lengths, sizeof lengths));
  CHECK(cudaMalloc((void **)&d_out, words_size));
  CHECK(cudaMalloc((void **)&d_bits, THREADS * BLOCKS * sizeof(int)));
  CHECK(cudaMemcpy(d_symbols, symbols, COUNT, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_codes, codes, sizeof codes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_lengths, lengths, sizeof lengths, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_out, 0, words_size));
  encode<<<BLOCKS, THREADS>>>(d_symbols, d_codes, d_lengths, d_out, d_bits);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, d_out, words_size, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(bits, d_bits, THREADS * BLOCKS * sizeof(int), cudaMemcpyDeviceToHost));

  int wrong_words = 0, wrong_bits = 0;
  long long total_bits = 0;
  for (int t = 0; t < THREADS * BLOCKS; t++) {
    int n = encode_cpu(symbols + t * PER_THREAD, codes, lengths, expected + t * WORDS_PER_THREAD);
    wrong_bits += bits[t] != n;
    total_bits += n;
  }
  for (int i = 0; i < COUNT; i++) wrong_words += out[i] != expected[i];
  if (wrong_words == 0 && wrong_bits == 0) {
    printf("PASS huffman: %d symbols in %lld bits, every word as a GPU packs it\n", COUNT,
           total_bits);
  } else {
    printf("FAIL huffman: %d words and %d bit counts differ from a GPU's\n", wrong_words,
           wrong_bits);
  }
  cudaFree(d_symbols);
  cudaFree(d_codes);
  cudaFree(d_lengths);
  cudaFree(d_out);
  cudaFree(d_bits);
  free(symbols);
  free(out);
  free(expected);
  free(bits);
  return wrong_words == 0 && wrong_bits == 0 ? 0 : 1;
}
