// Shifts by the width or more, as a GPU computes them (issue 27, cusim_shift.h). C++ leaves them
// undefined, and x86 takes the amount modulo the width (1 << 32 gives 1). For a shift by a
// run-time amount nvcc emits shl.b32/b64, shr.s32/s64 or shr.u32/u64 on the promoted operand
// (8- and 16-bit values are shifted as 32-bit ones) with the amount as an unsigned 32-bit value
// (a 64-bit amount's low half: ld.param.u32), and the PTX ISA clamps it to the width: shl and
// shr.u give 0, shr.s the sign. unit.sim.shifts.ptx checks that nvcc emits those instructions for
// this file. The amounts come from memory, so no compiler folds them. Usage: shift_cases; prints
// each result that is not the GPU's, then "shifts: ok" or "shifts: N wrong".
#include <cstdio>
#include <cuda_runtime.h>

template <class T> struct Box { T v; };
template <int N> struct Width { static constexpr int value = N; };
#define SHL(x, n) ((x) << (n))

enum { n_results = 40 };

// a[0..]: 32, 40, 64, 31, -1, 16, 1, 33, 65, 100, 7
__global__ void shifts(const int *a, const long long *a64, long long *out) {
  int i32 = 1, neg = -8, pos = 8;
  unsigned u32 = 0xFFFFFFFFu, top = 0x80000000u;
  long long i64 = 1, neg64 = -1;
  unsigned long long u64 = ~0ull;
  short s = 1, sneg = -4;
  unsigned short us = 0xFFFF;
  signed char c = -1;
  unsigned char uc = 0xFF;
  int k = 0;
  out[k++] = i32 << a[0];              // shl.b32 by 32: 0
  out[k++] = neg >> a[0];              // shr.s32 by 32: -1
  out[k++] = pos >> a[0];              // shr.s32 by 32: 0
  out[k++] = i32 << a[3];              // by 31: in range, INT_MIN
  out[k++] = pos << a[4];              // by -1, taken as 0xFFFFFFFF: 0
  out[k++] = u32 << a[0];              // 0
  out[k++] = top >> a[0];              // shr.u32: 0
  out[k++] = top >> a[7];              // by 33: 0
  out[k++] = u32 << a[9];              // by 100: 0
  out[k++] = i64 << a[2];              // shl.b64 by 64: 0
  out[k++] = neg64 >> a[2];            // shr.s64 by 64: -1
  out[k++] = i64 << a[0];              // by 32 of a 64-bit value: in range, 1 << 32
  out[k++] = (long long)(u64 >> a[2]); // shr.u64: 0
  out[k++] = (long long)(u64 << a[8]); // by 65: 0
  out[k++] = i64 << a64[0];            // a 64-bit amount 2^32 + 1: its low half, 1: 2
  out[k++] = s << a[5];                // a short is shifted as an int: 65536
  out[k++] = s << a[0];                // 0
  out[k++] = sneg >> a[1];             // by 40 as an int: -1
  out[k++] = us >> a[0];               // 0
  out[k++] = c >> a[1];                // -1
  out[k++] = uc << a[1];               // 0
  // compound forms
  int x = 5;
  x <<= a[0];
  out[k++] = x; // 0
  unsigned ux = 0xF0;
  ux >>= a[1];
  out[k++] = ux; // 0
  long long vx = -5;
  vx >>= a[2];
  out[k++] = vx; // -1
  short sx = 3;
  sx <<= a[7];
  out[k++] = sx; // 0
  signed char cx = 1;
  cx <<= a[10];
  out[k++] = cx; // (signed char)128: -128
  // precedence and associativity
  out[k++] = i32 << a[6] << a[0];       // (1 << 1) << 32: 0
  out[k++] = i32 << a[3] + 1;           // 1 << (31 + 1): 0
  out[k++] = (pos << a[0] > 5) ? 1 : 0; // (8 << 32) > 5: 0
  out[k++] = (20 < a[2] >> 1) ? 1 : 0;  // 20 < (64 >> 1): 1
  out[k++] = a[6] ? i32 << a[0] : 9;    // 0
  out[k++] = pos >> a[6] >> a[0];       // (8 >> 1) >> 32: 0
  out[k++] = SHL(i32, a[0]);            // in a macro: 0
  Box<Box<int>> b{{12}};                // '>>' closes two templates: untouched
  out[k++] = b.v.v >> a[0];             // 0
  out[k++] = Width<(1 << 3)>::value;    // a constant shift in a template argument: 8
  switch (a[6] << 2) {                  // 4
  case 1 << 2:
    out[k++] = 1;
    break; // a shift in a case label: a constant expression
  default:
    out[k++] = -1;
    break;
  }
  out[k++] = (long long)(-1ll << a[3]) >> a[3]; // in range: -1
  out[k++] = 1u << a[3] >> a[3];                // in range: 1
  out[k++] = (unsigned)i32 << (a[0] - 1) << 1;  // (1 << 31) << 1: 0 (wrapped, not clamped)
  out[k++] = k;
}

// Host code: stream-like operators on the host are not touched.
struct line_out {
  int total = 0;
  line_out &operator<<(int v) {
    total += v;
    return *this;
  }
};

int main() {
  const int amounts[] = {32, 40, 64, 31, -1, 16, 1, 33, 65, 100, 7};
  const long long want[n_results] = {0,  -1,   0,  -2147483648ll,
                                     0,  0,    0,  0,
                                     0,  0,    -1, 4294967296ll,
                                     0,  0,    2,  65536,
                                     0,  -1,   0,  -1,
                                     0,  0,    0,  -1,
                                     0,  -128, 0,  0,
                                     0,  1,    0,  0,
                                     0,  0,    8,  1,
                                     -1, 1,    0,  39};
  int *a;
  long long *a64, *out;
  cudaMallocManaged(&a, sizeof amounts);
  cudaMallocManaged(&a64, sizeof(long long));
  cudaMallocManaged(&out, n_results * sizeof(long long));
  for (int i = 0; i < 11; ++i) a[i] = amounts[i];
  *a64 = (1ll << 32) + 1;
  shifts<<<1, 1>>>(a, a64, out);
  cudaError_t e = cudaDeviceSynchronize();
  line_out host;
  host << 1 << 2 << 3; // 6
  int wrong = host.total != 6;
  for (int i = 0; e == cudaSuccess && i < n_results; ++i)
    if (out[i] != want[i]) {
      std::printf("result %d: %lld, a GPU gives %lld\n", i, out[i], want[i]);
      ++wrong;
    }
  if (e != cudaSuccess)
    std::printf("shifts: %s\n", cudaGetErrorName(e));
  else if (wrong)
    std::printf("shifts: %d wrong\n", wrong);
  else
    std::printf("shifts: ok\n");
  cudaFree(a);
  cudaFree(a64);
  cudaFree(out);
  return e != cudaSuccess || wrong;
}
