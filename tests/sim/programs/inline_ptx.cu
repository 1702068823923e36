// Inline PTX as programs write it by hand: special registers read with mov, the integer and bit
// instructions, a block with its own .reg registers, "+r", "n" immediates, a float's bits,
// mov's vectors ({lo, hi}) and predicates (setp, selp, @p). Every value is checked against the
// PTX ISA's definition of the instruction, computed here on the host. Needs sm_70 or later on a GPU
// (nanosleep).
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define BLOCKS 2
#define THREADS 64
#define FACTS 52
#define DYNAMIC_SHARED 40

static __host__ __device__ uint32_t input_a(unsigned t) {
  return t * 2654435761u ^ 0x9e3779b9u;
}
static __host__ __device__ uint32_t input_b(unsigned t) {
  return (t + 7u) * 0x85ebca6bu ^ (t << 20);
}

// Per thread: facts[0..FACTS) as below (the host's check names each).
__global__ void registers_and_bits(unsigned long long *facts) {
  extern __shared__ unsigned char dynamic[];
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long *f = facts + (size_t)t * FACTS;
  uint32_t a = input_a(t), b = input_b(t), u, v;
  uint64_t a64 = ((uint64_t)a << 32) | b, b64 = ((uint64_t)b << 29) ^ a, w;
  dynamic[threadIdx.x % DYNAMIC_SHARED] = 0;

  asm("mov.u32 %0, %%laneid;" : "=r"(u));
  f[0] = u;
  asm("mov.u32 %0, %%warpid;" : "=r"(u));
  asm("mov.u32 %0, %%nwarpid;" : "=r"(v));
  f[1] = u < v;
  asm("mov.u32 %0, %%lanemask_eq;" : "=r"(u));
  f[2] = u;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(u));
  f[3] = u;
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(u));
  f[4] = u;
  asm("mov.u32 %0, %%lanemask_gt;" : "=r"(u));
  f[5] = u;
  asm("mov.u32 %0, %%lanemask_ge;" : "=r"(u));
  f[6] = u;
  asm("mov.u32 %0, %%tid.x;" : "=r"(u));
  asm("mov.u32 %0, %%ntid.x;" : "=r"(v));
  f[7] = u == threadIdx.x && v == blockDim.x;
  asm("mov.u32 %0, %%ctaid.x;" : "=r"(u));
  asm("mov.u32 %0, %%nctaid.x;" : "=r"(v));
  f[8] = u == blockIdx.x && v == gridDim.x;
  asm("mov.u32 %0, %%smid;" : "=r"(u));
  asm("mov.u32 %0, %%nsmid;" : "=r"(v));
  f[9] = u < v;
  f[10] = v;
  asm("mov.u64 %0, %%gridid;" : "=l"(w));
  f[11] = w;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(u));
  f[12] = u;
  uint64_t c0, c1;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c0));
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(w)); // one %, as NVIDIA's samples write it
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c1));
  f[13] = c1 >= c0;
  f[14] = w;

  asm("add.u32 %0, %1, %2;" : "=r"(u) : "r"(a), "r"(b));
  f[15] = u;
  asm("sub.s32 %0, %1, %2;" : "=r"(u) : "r"(a), "r"(b));
  f[16] = u;
  asm("mul.lo.u32 %0, %1, %2;" : "=r"(u) : "r"(a), "r"(b));
  f[17] = u;
  asm("mul.hi.u32 %0, %1, %2;" : "=r"(u) : "r"(a), "r"(b));
  f[18] = u;
  asm("mul.hi.s32 %0, %1, %2;" : "=r"(u) : "r"(a), "r"(b));
  f[19] = u;
  asm("mul.wide.s32 %0, %1, %2;" : "=l"(w) : "r"(a), "r"(b));
  f[20] = w;
  asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(u) : "r"(a), "r"(b), "r"(t));
  f[21] = u;
  asm("mul.hi.u64 %0, %1, %2;" : "=l"(w) : "l"(a64), "l"(b64));
  f[22] = w;
  asm("mul.hi.s64 %0, %1, %2;" : "=l"(w) : "l"(a64), "l"(b64));
  f[23] = w;
  asm("min.s32 %0, %1, %2;" : "=r"(u) : "r"(a), "r"(b));
  f[24] = u;
  asm("max.u32 %0, %1, %2;" : "=r"(u) : "r"(a), "r"(b));
  f[25] = u;
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(u) : "r"(a), "r"(b), "r"(t));
  f[26] = u;
  asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(u) : "r"(a), "r"(b), "r"(t), "n"(0xe8));
  f[27] = u;
  asm("shl.b32 %0, %1, %2;" : "=r"(u) : "r"(a), "r"(t % 40));
  f[28] = u;
  asm("shr.s32 %0, %1, %2;" : "=r"(u) : "r"(a), "r"(t % 40));
  f[29] = u;
  asm("shr.u64 %0, %1, %2;" : "=l"(w) : "l"(a64), "r"(t));
  f[30] = w;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(u) : "r"(a), "r"(t % 37), "r"(t / 4));
  f[31] = u;
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(u) : "r"(a), "r"(t % 37), "r"(t / 4));
  f[32] = u;
  asm("bfe.s64 %0, %1, %2, %3;" : "=l"(w) : "l"(a64), "r"(t % 67), "r"(t / 2));
  f[33] = w;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(u) : "r"(a), "r"(b), "r"(t % 35), "r"(t / 5));
  f[34] = u;
  asm("brev.b32 %0, %1;" : "=r"(u) : "r"(a));
  f[35] = u;
  asm("popc.b64 %0, %1;" : "=r"(u) : "l"(a64));
  f[36] = u;
  v = t % 33 == 32 ? 0 : a >> (t % 33);
  asm("clz.b32 %0, %1;" : "=r"(u) : "r"(v));
  f[37] = u;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(u) : "r"(a), "r"(b), "r"(b ^ t));
  f[38] = u;
  asm("not.b32 %0, %1;" : "=r"(u) : "r"(a));
  f[39] = u;
  unsigned short h = (unsigned short)a;
  asm("add.u16 %0, %1, %2;" : "=h"(h) : "h"(h), "h"((unsigned short)b));
  f[40] = h;
  // a block with its own registers: (a xor b) + 2*t, then shifted left by 3
  asm("{\n\t.reg .u32 s, r<2>;\n\txor.b32 r0, %1, %2;\n\tmad.lo.u32 r1, %3, 2, r0;\n\t"
      "shl.b32 %0, r1, 3;\n\t}"
      : "=r"(u)
      : "r"(a), "r"(b), "r"(t));
  f[41] = u;
  u = a;
  asm("add.u32 %0, %0, %1;" : "+r"(u) : "r"(b)); // read and written
  f[42] = u;
  asm("sub.u32 %0, %1, %2;" : "=r"(u) : "r"(a), "r"(b));
  f[43] = u;
  float x = (float)t * 0.5f;
  asm("mov.b32 %0, %1;" : "=r"(u) : "f"(x));
  f[44] = u;
  double y = (double)t * 0.25;
  asm("mov.b64 %0, %1;" : "=l"(w) : "d"(y));
  f[45] = w;
  asm("neg.s32 %0, %1;" : "=r"(u) : "r"(a));
  f[46] = u;
  asm volatile("membar.gl;" ::: "memory");
  asm volatile("fence.sc.gpu;" ::: "memory");
  asm volatile("nanosleep.u32 %0;" ::"r"(t));
  asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(w) : "r"(a), "r"(b), "l"(a64));
  f[47] = w;
  asm("mov.b64 %0, {%1, %2};" : "=l"(w) : "r"(a), "r"(b));
  f[48] = w;
  asm("{\n\t.reg .b16 lo, hi;\n\tmov.b32 {lo, hi}, %1;\n\tmov.b32 %0, {hi, lo};\n\t}"
      : "=r"(u)
      : "r"(a));
  f[49] = u;
  asm("{\n\t.reg .pred p;\n\tsetp.lt.s32 p, %1, %2;\n\tselp.u32 %0, 7, 9, p;\n\t}"
      : "=r"(u)
      : "r"(a), "r"(b));
  f[50] = u;
  asm("{\n\t.reg .pred p;\n\tsetp.hi.u32 p, %1, %2;\n\tmov.u32 %0, 0;\n\t@!p mov.u32 %0, 5;\n\t"
      "@p add.u32 %0, %0, 1;\n\t}"
      : "=r"(u)
      : "r"(a), "r"(b));
  f[51] = u;
}

// ---- the PTX ISA's definitions, on the host ----------------------------------------------------

static uint32_t shl32(uint32_t a, unsigned n) {
  return n >= 32 ? 0 : a << n;
}
static uint32_t shr_s32(uint32_t a, unsigned n) {
  int32_t s = (int32_t)a;
  if (n >= 32) {
    return s < 0 ? 0xffffffffu : 0;
  }
  return (uint32_t)(s >> n);
}
// bfe: len bits from pos, padded with the field's sign bit (.s) or zeros (.u)
static uint64_t bfe(uint64_t a, unsigned bits, int is_signed, unsigned pos, unsigned len) {
  unsigned msb = bits - 1;
  pos &= 0xff;
  len &= 0xff;
  unsigned sbit = 0;
  if (is_signed && len != 0) {
    unsigned top = pos + len - 1 < msb ? pos + len - 1 : msb;
    sbit = (unsigned)(a >> top) & 1;
  }
  uint64_t d = 0;
  for (unsigned i = 0; i <= msb; i++) {
    uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
    d |= bit << i;
  }
  return d;
}
static uint32_t bfi32(uint32_t a, uint32_t b, unsigned pos, unsigned len) {
  pos &= 0xff;
  len &= 0xff;
  uint32_t f = b;
  for (unsigned i = 0; i < len && pos + i <= 31; i++) {
    f = (f & ~(1u << (pos + i))) | (((a >> i) & 1u) << (pos + i));
  }
  return f;
}
static uint32_t prmt(uint32_t a, uint32_t b, uint32_t c) {
  uint8_t bytes[8];
  for (int i = 0; i < 4; i++) {
    bytes[i] = (uint8_t)(a >> (8 * i));
    bytes[4 + i] = (uint8_t)(b >> (8 * i));
  }
  uint32_t d = 0;
  for (int i = 0; i < 4; i++) {
    unsigned sel = (c >> (4 * i)) & 0xf;
    uint32_t byte = bytes[sel & 7];
    if (sel & 8) {
      byte = (byte & 0x80) ? 0xff : 0;
    }
    d |= byte << (8 * i);
  }
  return d;
}
static uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, unsigned lut) {
  uint32_t d = 0;
  for (int bit = 0; bit < 32; bit++) {
    unsigned index = (((a >> bit) & 1) << 2) | (((b >> bit) & 1) << 1) | ((c >> bit) & 1);
    d |= ((lut >> index) & 1u) << bit;
  }
  return d;
}
static uint64_t mul_hi_u64(uint64_t a, uint64_t b) {
  return (uint64_t)(((unsigned __int128)a * b) >> 64);
}
static uint64_t mul_hi_s64(uint64_t a, uint64_t b) {
  return (uint64_t)((__int128)(int64_t)a * (__int128)(int64_t)b >> 64);
}

static int wrong = 0;
static void expect(unsigned t, int fact, const char *what, unsigned long long got,
                   unsigned long long want) {
  if (got != want && wrong++ < 6) {
    printf("FAIL inline_ptx: thread %u, fact %d, %s: got 0x%llx, want 0x%llx\n", t, fact, what, got,
           want);
  }
}

static void check_thread(const unsigned long long *f, unsigned t, int sms) {
  uint32_t a = input_a(t), b = input_b(t);
  uint64_t a64 = ((uint64_t)a << 32) | b, b64 = ((uint64_t)b << 29) ^ a;
  unsigned lane = t % 32;
  expect(t, 0, "%laneid", f[0], lane);
  expect(t, 1, "%warpid < %nwarpid", f[1], 1);
  expect(t, 2, "%lanemask_eq", f[2], 1u << lane);
  expect(t, 3, "%lanemask_lt", f[3], (1u << lane) - 1);
  expect(t, 4, "%lanemask_le", f[4], (uint32_t)((2ull << lane) - 1));
  expect(t, 5, "%lanemask_gt", f[5], (uint32_t) ~((2ull << lane) - 1));
  expect(t, 6, "%lanemask_ge", f[6], (uint32_t) ~((1u << lane) - 1));
  expect(t, 7, "%tid.x, %ntid.x", f[7], 1);
  expect(t, 8, "%ctaid.x, %nctaid.x", f[8], 1);
  expect(t, 9, "%smid < %nsmid", f[9], 1);
  expect(t, 10, "%nsmid >= the SM count", f[10] >= (unsigned long long)sms, 1);
  expect(t, 12, "%dynamic_smem_size", f[12], DYNAMIC_SHARED);
  expect(t, 13, "%clock64 never goes back", f[13], 1);
  expect(t, 15, "add.u32", f[15], a + b);
  expect(t, 16, "sub.s32", f[16], (uint32_t)(a - b));
  expect(t, 17, "mul.lo.u32", f[17], a * b);
  expect(t, 18, "mul.hi.u32", f[18], (uint32_t)(((uint64_t)a * b) >> 32));
  expect(t, 19, "mul.hi.s32", f[19], (uint32_t)(((int64_t)(int32_t)a * (int64_t)(int32_t)b) >> 32));
  expect(t, 20, "mul.wide.s32", f[20], (uint64_t)((int64_t)(int32_t)a * (int64_t)(int32_t)b));
  expect(t, 21, "mad.lo.u32", f[21], a * b + t);
  expect(t, 22, "mul.hi.u64", f[22], mul_hi_u64(a64, b64));
  expect(t, 23, "mul.hi.s64", f[23], mul_hi_s64(a64, b64));
  expect(t, 24, "min.s32", f[24], (uint32_t)((int32_t)a < (int32_t)b ? (int32_t)a : (int32_t)b));
  expect(t, 25, "max.u32", f[25], a > b ? a : b);
  expect(t, 26, "lop3.b32 0x96", f[26], lop3(a, b, t, 0x96));
  expect(t, 27, "lop3.b32 0xe8", f[27], lop3(a, b, t, 0xe8));
  expect(t, 28, "shl.b32", f[28], shl32(a, t % 40));
  expect(t, 29, "shr.s32", f[29], shr_s32(a, t % 40));
  expect(t, 30, "shr.u64", f[30], t >= 64 ? 0 : a64 >> t);
  expect(t, 31, "bfe.u32", f[31], bfe(a, 32, 0, t % 37, t / 4));
  expect(t, 32, "bfe.s32", f[32], bfe(a, 32, 1, t % 37, t / 4));
  expect(t, 33, "bfe.s64", f[33], bfe(a64, 64, 1, t % 67, t / 2));
  expect(t, 34, "bfi.b32", f[34], bfi32(a, b, t % 35, t / 5));
  uint32_t reversed = 0;
  for (int i = 0; i < 32; i++) {
    reversed |= ((a >> i) & 1u) << (31 - i);
  }
  expect(t, 35, "brev.b32", f[35], reversed);
  expect(t, 36, "popc.b64", f[36], (unsigned)__builtin_popcountll(a64));
  uint32_t c = t % 33 == 32 ? 0 : a >> (t % 33);
  expect(t, 37, "clz.b32", f[37], c == 0 ? 32 : (unsigned)__builtin_clz(c));
  expect(t, 38, "prmt.b32", f[38], prmt(a, b, b ^ t));
  expect(t, 39, "not.b32", f[39], ~a);
  expect(t, 40, "add.u16", f[40], (uint16_t)(a + b));
  expect(t, 41, ".reg block", f[41], shl32((a ^ b) + 2 * t, 3) & 0xffffffffu);
  expect(t, 42, "\"+r\"", f[42], a + b);
  expect(t, 43, "sub.u32", f[43], a - b);
  float x = (float)t * 0.5f;
  uint32_t xb;
  memcpy(&xb, &x, 4);
  expect(t, 44, "mov.b32 of a float", f[44], xb);
  double y = (double)t * 0.25;
  uint64_t yb;
  memcpy(&yb, &y, 8);
  expect(t, 45, "mov.b64 of a double", f[45], yb);
  expect(t, 46, "neg.s32", f[46], (uint32_t)(0u - a));
  expect(t, 47, "mad.wide.u32", f[47], (uint64_t)a * b + a64);
  expect(t, 48, "mov.b64 of {a, b}", f[48], ((uint64_t)b << 32) | a);
  expect(t, 49, "mov.b32 to and from {lo, hi}", f[49], (a >> 16) | (a << 16));
  expect(t, 50, "setp.lt.s32, selp.u32", f[50], (int32_t)a < (int32_t)b ? 7 : 9);
  expect(t, 51, "setp.hi.u32, @p, @!p", f[51], a > b ? 1 : 5);
}

int main(void) {
  const unsigned n = BLOCKS * THREADS;
  unsigned long long *first, *second;
  if (cudaMallocManaged(&first, n * FACTS * sizeof *first) != cudaSuccess ||
      cudaMallocManaged(&second, n * FACTS * sizeof *second) != cudaSuccess) {
    printf("FAIL inline_ptx: cudaMallocManaged\n");
    return 1;
  }
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  registers_and_bits<<<BLOCKS, THREADS, DYNAMIC_SHARED>>>(first);
  cudaError_t err = cudaDeviceSynchronize();
  struct timespec pause = {0, 20 * 1000 * 1000}; // 20 ms between the launches
  nanosleep(&pause, NULL);
  registers_and_bits<<<BLOCKS, THREADS, DYNAMIC_SHARED>>>(second);
  if (err == cudaSuccess) {
    err = cudaDeviceSynchronize();
  }
  if (err != cudaSuccess) {
    printf("FAIL inline_ptx: %s\n", cudaGetErrorString(err));
    return 1;
  }
  for (unsigned t = 0; t < n; t++) {
    check_thread(first + (size_t)t * FACTS, t, sms);
    // one %gridid per launch, another for the next launch
    expect(t, 11, "%gridid of one launch", first[(size_t)t * FACTS + 11], first[11]);
  }
  expect(0, 11, "%gridid differs between launches", first[11] != second[11], 1);
  // %globaltimer counts nanoseconds: the 20 ms pause shows as 20 ms or more, and less than 10 s
  unsigned long long apart = second[14] - first[14];
  expect(0, 14, "%globaltimer's 20 ms pause", apart >= 20000000ull && apart < 10000000000ull, 1);
  cudaFree(first);
  cudaFree(second);
  if (wrong == 0) {
    printf("PASS inline_ptx: %d facts from %u threads in two launches\n", FACTS, n);
  }
  return wrong != 0;
}
