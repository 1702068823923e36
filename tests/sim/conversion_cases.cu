// Explicit conversions of out-of-range floating values to integers, as a GPU computes them
// (issue 27, cusim_shift.h: gpu_cast). C++ leaves them undefined, and x86's cvttss2si gives
// INT_MIN for every one (3e10f as an int is -2147483648). nvcc emits cvt.rzi.s32/u32/s64/u64
// (for 8- and 16-bit types cvt.rzi.{s,u}32, then the low bits are stored: st.u16/st.u8), which
// the PTX ISA saturates: NaN gives 0, a value past the range its nearest end.
// unit.sim.conversions.ptx checks those instructions in nvcc's PTX for this file. The values come
// from memory, so no compiler folds them. The second half: C casts whose operand is not
// parenthesized ((int)f[0], (unsigned)-x) and functional casts (int(x)), and integer sources,
// which keep C++'s conversions. Usage: conversion_cases; prints each result that is not
// the GPU's, then "conversions: ok" or "conversions: N wrong".
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

enum { n_results = 36 };

struct boxed {
  float v;
};
__device__ float twice(float v) {
  return 2.0f * v;
}

// f[0..]: 3e10, -3e10, NaN, -5, 2.9, -2.9, 40000, 300, -1, inf, -inf; d[0..]: 5e9, 1e30, -1
__global__ void conversions(const float *f, const double *d, long long *out) {
  int k = 0;
  out[k++] = (int)(f[0]);                                      // cvt.rzi.s32.f32: 2147483647
  out[k++] = (int)(f[1]);                                      // -2147483648
  out[k++] = (int)(f[2]);                                      // NaN: 0
  out[k++] = (unsigned)(f[3]);                                 // cvt.rzi.u32.f32: 0
  out[k++] = (unsigned)(d[0]);                                 // cvt.rzi.u32.f64: 4294967295
  out[k++] = static_cast<long long>(d[1]);                     // cvt.rzi.s64.f64: LLONG_MAX
  out[k++] = (long long)static_cast<unsigned long long>(d[2]); // cvt.rzi.u64.f64: 0
  out[k++] = static_cast<int>(f[4]);                           // in range: 2
  out[k++] = (int)(f[5]);                                      // in range: -2
  out[k++] = (short)(f[6]);                                    // s32 40000, low 16 bits: -25536
  out[k++] = (unsigned char)(f[7]);                            // u32 300, low 8 bits: 44
  out[k++] = (unsigned char)(f[8]);                            // u32 of -1: 0
  out[k++] = (short)(f[0]);                                    // s32 2147483647, low 16 bits: -1
  out[k++] = static_cast<int>(f[9]);                           // inf: 2147483647
  out[k++] = (long long)(f[10]);                               // -inf: LLONG_MIN
  out[k++] = (uint32_t)(f[0] * 2.0f);                          // a typedef: 4294967295
  out[k++] = (unsigned long long)(f) != 0;                     // a pointer: reinterpreted, 1
  // The operand not parenthesized, and functional casts (the same cvt.rzi; x86 in brackets)
  float x = f[2];
  boxed b = {f[0]};
  const boxed *pb = &b;
  int iv = (int)(f[7]);                // 300, in range
  long long lv = (long long)(d[0]);    // 5000000000, in range
  out[k++] = (int)f[0];                // 2147483647 [-2147483648]
  out[k++] = (int)x;                   // NaN: 0 [-2147483648]
  out[k++] = (unsigned)-f[0];          // -3e10: 0
  out[k++] = int(f[0]);                // 2147483647 [-2147483648]
  out[k++] = unsigned(d[0]);           // cvt.rzi.u32.f64: 4294967295
  out[k++] = (long long)d[1];          // LLONG_MAX [LLONG_MIN]
  out[k++] = (unsigned long long)f[3]; // cvt.rzi.u64.f32 of -5: 0 [2^64 - 5]
  out[k++] = (short)f[0];              // s32 2147483647, low 16 bits: -1 [0]
  out[k++] = (int)b.v;                 // 2147483647
  out[k++] = (int)pb->v;               // 2147483647
  out[k++] = (int)twice(f[0]);         // a call: 2147483647
  out[k++] = (int)f[4] * 2;            // the cast binds to f[4]: 2 * 2 = 4, not 5
  out[k++] = (int)-f[5];               // in range: 2
  out[k++] = size_t(f[3]);             // 0 [2^64 - 5]
  out[k++] = long(f[9]);               // inf: LLONG_MAX [LLONG_MIN]
  // Integer sources: the C++ conversions, unchanged
  out[k++] = (unsigned char)iv + char(iv); // 44 + 44
  out[k++] = (unsigned)-iv;                // 4294966996
  out[k++] = (short)lv + (int)-lv;         // -3584 + (int)-5000000000: -3584 - 705032704
  out[k++] = k;
}

int main() {
  const float fv[] = {
      3e10f, -3e10f,           __builtin_nanf(""), -5.0f, 2.9f, -2.9f, 40000.0f, 300.0f,
      -1.0f, __builtin_inff(), -__builtin_inff()};
  const double dv[] = {5e9, 1e30, -1.0};
  const long long want[n_results] = {2147483647ll,
                                     -2147483647ll - 1,
                                     0,
                                     0,
                                     4294967295ll,
                                     9223372036854775807ll,
                                     0,
                                     2,
                                     -2,
                                     -25536,
                                     44,
                                     0,
                                     -1,
                                     2147483647ll,
                                     -9223372036854775807ll - 1,
                                     4294967295ll,
                                     1,
                                     2147483647ll,
                                     0,
                                     0,
                                     2147483647ll,
                                     4294967295ll,
                                     9223372036854775807ll,
                                     0,
                                     -1,
                                     2147483647ll,
                                     2147483647ll,
                                     2147483647ll,
                                     4,
                                     2,
                                     0,
                                     9223372036854775807ll,
                                     88,
                                     4294966996ll,
                                     -3584 - 705032704ll,
                                     35};
  float *f;
  double *d;
  long long *out;
  cudaMallocManaged(&f, sizeof fv);
  cudaMallocManaged(&d, sizeof dv);
  cudaMallocManaged(&out, n_results * sizeof(long long));
  for (int i = 0; i < 11; ++i) f[i] = fv[i];
  for (int i = 0; i < 3; ++i) d[i] = dv[i];
  conversions<<<1, 1>>>(f, d, out);
  cudaError_t e = cudaDeviceSynchronize();
  int wrong = 0;
  for (int i = 0; e == cudaSuccess && i < n_results; ++i)
    if (out[i] != want[i]) {
      std::printf("result %d: %lld, a GPU gives %lld\n", i, out[i], want[i]);
      ++wrong;
    }
  if (e != cudaSuccess)
    std::printf("conversions: %s\n", cudaGetErrorName(e));
  else if (wrong)
    std::printf("conversions: %d wrong\n", wrong);
  else
    std::printf("conversions: ok\n");
  cudaFree(f);
  cudaFree(d);
  cudaFree(out);
  return e != cudaSuccess || wrong;
}
