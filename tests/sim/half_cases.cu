// Half and bfloat16 types (cuda_fp16.h, cuda_bf16.h) as a GPU computes them, and the memory
// checker on arrays of them. Usage: half_cases CASE.
//  values: conversions at the edges (ties, subnormals, overflow, NaN, the rounding modes),
//    arithmetic with one rounding (an fma whose two-rounding answer differs), half2, bfloat16,
//    warp shuffles and atomicAdd; prints each result that is not the GPU's, then "values: ok"
//    or "values: N wrong". Every expected value comes from IEEE 754's rules, worked out in the
//    comment beside it (the PTX instructions nvcc emits round to nearest even unless the name
//    says otherwise, and keep subnormals).
//  halves, half2_lanes, half_reduction: neighbouring halves of one 4-byte word, each its own
//    thread's, in global and __shared__ memory: no race; prints "CASE: ok".
//  half_race, half_race_shared: a true race on one half: the checker stops the kernel.
// nvcc builds this file too (unit.sim.half_cases.builds_with_nvcc).
#include <cstdio>
#include <cstring>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

enum { n_results = 68 };

// in[]: inputs from memory, so that no compiler folds them.
//  0: 1.0f  1: 65504  2: 65519  3: 65520  4: 1e10  5: 2^-24  6: 2^-25  7: 1.5 * 2^-25
//  8: 1 + 2^-11  9: 1 + 3 * 2^-11  10: 1 + 2^-20  11: NaN  12: -0.0f  13: 0.1f  14: 2.5
//  15: 3.5  16: 2^-14  17: 1 + 2^-8  18: 1 + 3 * 2^-8  19: FLT_MAX  20: 0.75  21: 0.5
//  22: 0.25  23: 256  24: 3  25: 2  26: 1 + 2^-10  27: 1 - 2^-11  28: -0.5625  29: 29120
//  30: 0x1.078p-15  31: 8  32: 16  33: -1
__global__ void values(const float *in, const double *d, const int *ints, unsigned *out) {
  int k = 0;
  // float to half, round to nearest even (cvt.rn.f16.f32)
  out[k++] = __half_as_ushort(__float2half(in[0]));      // 1: 0x3C00
  out[k++] = __half_as_ushort(__float2half(in[1]));      // 65504, the largest half: 0x7BFF
  out[k++] = __half_as_ushort(__float2half(in[2]));      // 65519, below the tie 65520: 0x7BFF
  out[k++] = __half_as_ushort(__float2half(in[3]));      // 65520: tie, even is 2^16: inf 0x7C00
  out[k++] = __half_as_ushort(__float2half(in[4]));      // 1e10: inf 0x7C00
  out[k++] = __half_as_ushort(__float2half(-in[4]));     // -inf 0xFC00
  out[k++] = __half_as_ushort(__float2half(in[5]));      // 2^-24, the smallest subnormal: 0x0001
  out[k++] = __half_as_ushort(__float2half(in[6]));      // 2^-25: tie between 0 and 2^-24: 0x0000
  out[k++] = __half_as_ushort(__float2half(in[7]));      // 1.5 * 2^-25, above the tie: 0x0001
  out[k++] = __half_as_ushort(__float2half(in[16]));     // 2^-14, the smallest normal: 0x0400
  out[k++] = __half_as_ushort(__float2half(in[8]));      // 1 + 2^-11: tie, 1 is even: 0x3C00
  out[k++] = __half_as_ushort(__float2half(in[9]));      // 1 + 3*2^-11: tie, 0x3C02 is even
  out[k++] = __hisnan(__float2half(in[11])) ? 1u : 0u;   // NaN stays NaN: 1
  out[k++] = __half_as_ushort(__float2half(in[12]));     // -0: 0x8000
  out[k++] = __half_as_ushort(__float2half(in[13]));     // 0.1 = 1.6 * 2^-4, 614.4/1024: 0x2E66
  out[k++] = __half_as_ushort(__float2half_rz(in[4]));   // towards zero: 65504 0x7BFF
  out[k++] = __half_as_ushort(__float2half_rd(-in[4]));  // down: -inf 0xFC00
  out[k++] = __half_as_ushort(__float2half_ru(-in[4]));  // up: -65504 0xFBFF
  out[k++] = __half_as_ushort(__float2half_ru(in[10]));  // 1 + 2^-20 up: 1 + 2^-10 0x3C01
  out[k++] = __half_as_ushort(__float2half_rd(-in[10])); // down: -(1 + 2^-10) 0xBC01
  out[k++] = __half_as_ushort(__float2half_rz(-in[10])); // towards zero: -1 0xBC00
  // double to half in one rounding (cvt.rn.f16.f64): 1 + 2^-11 + 2^-40 is above the tie,
  // 0x3C01; through float it would become the tie 1 + 2^-11 and then 0x3C00.
  out[k++] = __half_as_ushort(__double2half(d[0]));
  out[k++] = __float_as_uint(__half2float(__ushort_as_half(0x0001))); // 2^-24: 0x33800000
  out[k++] = __float_as_uint(__half2float(__ushort_as_half(0x7BFF))); // 65504: 0x477FE000
  // half to integer (cvt.rni/rzi/rmi/rpi: NaN gives 0, out of range saturates)
  __half h25 = __float2half(in[14]), h35 = __float2half(in[15]);
  out[k++] = (unsigned)__half2int_rn(h25);                     // 2.5: tie to even, 2
  out[k++] = (unsigned)__half2int_rn(h35);                     // 3.5: 4
  out[k++] = (unsigned)__half2int_rz(__hneg(h25));             // -2.5 towards zero: -2
  out[k++] = (unsigned)__half2int_rd(__hneg(h25));             // down: -3
  out[k++] = (unsigned)__half2int_ru(h25);                     // up: 3
  out[k++] = (unsigned)__half2short_rz(__float2half(in[4]));   // inf: 32767
  out[k++] = (unsigned)__half2ushort_rz(__float2half(in[33])); // -1: 0
  out[k++] = (unsigned)__half2int_rz(__float2half(in[11]));    // NaN: 0
  out[k++] = (unsigned)__half2short_rn(__float2half(in[1]));   // 65504: 32767
  // integer to half: between 2048 and 4096 the spacing is 2
  out[k++] = __half_as_ushort(__int2half_rn(ints[0])); // 2049: tie, 2048 is even: 0x6800
  out[k++] = __half_as_ushort(__int2half_rn(ints[1])); // 2051: tie, 2052 is even: 0x6802
  out[k++] = __half_as_ushort(__int2half_rz(ints[1])); // 2051 towards zero: 2050 0x6801
  out[k++] = __half_as_ushort(__int2half_rn(ints[2])); // 70000: inf 0x7C00
  out[k++] = __half_as_ushort(__int2half_rz(ints[2])); // 70000 towards zero: 65504 0x7BFF
  // arithmetic, one rounding each
  __half one = __float2half(in[0]);
  out[k++] =
      __half_as_ushort(__hadd_rn(one, __float2half(in[5] * 8192.0f))); // 1 + 2^-11: tie, 0x3C00
  out[k++] = __half_as_ushort(__hadd(__float2half(in[1]), __float2half(in[32]))); // 65520: inf
  out[k++] = __half_as_ushort(__hadd(__float2half(in[1]), __float2half(in[31]))); // 65512: 0x7BFF
  out[k++] =
      __half_as_ushort(__hmul_rn(__float2half(in[16]), __float2half(in[21]))); // 2^-15: 0x0200
  out[k++] =
      __half_as_ushort(__hmul_rn(__float2half(in[16]), __float2half(in[5] * 8192.0f))); // 2^-25: 0
  out[k++] = __half_as_ushort(__hmul(__float2half(in[23]), __float2half(in[23]))); // 65536: inf
  out[k++] = __half_as_ushort(__hdiv(one, __float2half(in[24]))); // 1/3: 341.33/1024, 0x3555
  out[k++] = __half_as_ushort(hsqrt(__float2half(in[25]))); // sqrt 2 = 1 + 424.15/1024: 0x3DA8
  out[k++] = __half_as_ushort(__hadd_sat(__float2half(in[20]), __float2half(in[21]))); // 1: 0x3C00
  out[k++] = __half_as_ushort(__hsub_sat(__float2half(in[22]), __float2half(in[21]))); // 0
  // fma: (1 + 2^-10)(1 - 2^-11) - 1 = 2^-11 - 2^-21 exactly, 2^-12 * (1 + 1022/1024): 0x0FFE;
  // rounding the product first gives 1, and then 0.
  out[k++] = __half_as_ushort(__hfma(__float2half(in[26]), __float2half(in[27]), __hneg(one)));
  // -0.5625 * 29120 = -16380, a tie between -16376 and -16384; + 0x1.078p-15 makes it nearer
  // -16376: 0xF3FF. In float the addend is lost and the tie goes to even: -16384 0xF400.
  out[k++] =
      __half_as_ushort(__hfma(__float2half(in[28]), __float2half(in[29]), __float2half(in[30])));
  // max and min: a NaN gives the other; max(+0, -0) = +0, min(+0, -0) = -0
  __half nan = __float2half(in[11]), pz = __float2half(0.0f), nz = __float2half(in[12]);
  out[k++] = __half_as_ushort(__hmax(nan, one));       // 0x3C00
  out[k++] = __half_as_ushort(__hmax(nz, pz));         // 0x0000
  out[k++] = __half_as_ushort(__hmin(pz, nz));         // 0x8000
  out[k++] = __hisnan(__hmax_nan(nan, one)) ? 1u : 0u; // 1
  out[k++] = (__hne(nan, one) ? 1u : 0u) | (__hneu(nan, one) ? 2u : 0u) | (nan != nan ? 4u : 0u) |
             (__heq(nan, nan) ? 8u : 0u); // ordered != false, unordered true, == false: 6
  // half2: lane x is the low 16 bits
  __half2 p = __floats2half2_rn(in[13], in[3]); // {0x2E66, inf}
  out[k++] = __half_as_ushort(__low2half(p)) | (unsigned)__half_as_ushort(__high2half(p)) << 16;
  __half2 q = __hadd2(__floats2half2_rn(in[0], in[25]), __floats2half2_rn(in[21], in[22]));
  out[k++] = __half_as_ushort(q.x) | (unsigned)__half_as_ushort(q.y)
                                         << 16; // {1.5 0x3E00, 2.25 0x4080}
  __half2 r = __lowhigh2highlow(__hmul2(q, __half2half2(__float2half(in[25])))); // {4.5, 3}
  out[k++] = __half_as_ushort(r.x) | (unsigned)__half_as_ushort(r.y) << 16;      // {0x4480, 0x4200}
  out[k++] = __heq2_mask(q, __floats2half2_rn(1.5f, 2.0f)); // lane x equal: 0x0000FFFF
  // complex multiply-add: (1 + 2i)(3 + 4i) + (0.5 + 0.25i) = -4.5 + 10.25i, exact:
  // {0xC480, 10.25 = 8 * (1 + 288/1024): 0x4920}
  __half2 cm = __hcmadd(__floats2half2_rn(in[0], in[25]), __floats2half2_rn(in[24], 4.0f),
                        __floats2half2_rn(in[21], in[22]));
  out[k++] = __half_as_ushort(cm.x) | (unsigned)__half_as_ushort(cm.y) << 16;
  // bfloat16 (8 significant bits): ties, overflow, fma
  out[k++] = __bfloat16_as_ushort(__float2bfloat16(in[17])); // 1 + 2^-8: tie, 1: 0x3F80
  out[k++] = __bfloat16_as_ushort(__float2bfloat16(in[18])); // 1 + 3*2^-8: tie, 0x3F82 even
  out[k++] =
      __bfloat16_as_ushort(__float2bfloat16(in[19])); // FLT_MAX: above the largest: inf 0x7F80
  out[k++] = __bfloat16_as_ushort(__float2bfloat16_rz(in[19])); // towards zero: 0x7F7F
  __nv_bfloat16 b1 = __float2bfloat16(in[0]);
  out[k++] =
      __bfloat16_as_ushort(__hadd(b1, __float2bfloat16(in[5] * 2097152.0f))); // 1 + 2^-3: 0x3F90
  out[k++] =
      __bfloat16_as_ushort(__hfma(__float2bfloat16(in[17] + 3.0f * (in[17] - 1.0f)),
                                  __float2bfloat16(in[17] + 3.0f * (in[17] - 1.0f)), __hneg(b1)));
  // (1 + 2^-6)^2 - 1 = 2^-5 + 2^-12 exactly: 2^-5 * (1 + 2^-7): 0x3D01
  if (k != n_results - 2) out[n_results - 1] = 0xBAD;
}

// Warp shuffles and atomics on halves: 64 threads.
__global__ void warp_and_atomics(__half *sum, __half2 *sum2, __half *warp_sums) {
  unsigned t = threadIdx.x;
  __half v = __float2half(1.0f);
  for (int offset = 16; offset > 0; offset /= 2)
    v = __hadd(v, __shfl_down_sync(0xffffffffu, v, offset));
  if (t % 32 == 0) warp_sums[t / 32] = v;          // 32: 0x5000
  atomicAdd(sum, __float2half(0.5f));              // 64 * 0.5 = 32: 0x5000
  atomicAdd(sum2, __floats2half2_rn(1.0f, 0.25f)); // {64, 16}: {0x5400, 0x4C00}
}

// ---- neighbouring halves, each its own thread's: no race ---------------------------------------
__global__ void halves(__half *h) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  h[t] = __hmul(h[t], __float2half(3.0f));
}
__global__ void half2_lanes(__half2 *v) {
  int t = threadIdx.x;
  if (t % 2 == 0)
    v[t / 2].x = __hadd(v[t / 2].x, __float2half((float)t));
  else
    v[t / 2].y = __hadd(v[t / 2].y, __float2half((float)t));
}
// A tree reduction over __half in shared memory: at each step thread t < s adds element t + s,
// which its neighbour in the same word may be writing at the same time as its own element t.
__global__ void half_reduction(const __half *in, float *out) {
  __shared__ __half s[128];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) s[t] = __hadd(s[t], s[t + stride]);
    __syncthreads();
  }
  if (t == 0) *out = __half2float(s[0]);
}

// ---- a true race on one half: found ------------------------------------------------------------
// Thread t writes h[t] and reads h[t + 1], which thread t + 1 writes, with no barrier.
__global__ void half_race(__half *h, __half *out) {
  unsigned t = threadIdx.x;
  h[t] = __float2half((float)t);
  out[t] = h[(t + 1) % 64];
}
__global__ void half_race_shared(__half *out) {
  __shared__ __half s[64];
  unsigned t = threadIdx.x;
  s[t] = __float2half((float)t);
  out[t] = s[(t + 1) % 64];
}

static int finish(const char *name, bool right) {
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("%s: %s\n", name, cudaGetErrorName(e));
    return 1;
  }
  std::printf("%s: %s\n", name, right ? "ok" : "wrong result");
  return right ? 0 : 1;
}

static unsigned bits(__half h) {
  unsigned short b;
  std::memcpy(&b, &h, sizeof b);
  return b;
}

int main(int argc, char **argv) {
  const char *c = argc > 1 ? argv[1] : "";
  if (!std::strcmp(c, "values")) {
    static const unsigned want[n_results - 2] = {
        0x3C00,     0x7BFF,     0x7BFF,       0x7C00,       0x7C00, 0xFC00, 0x0001,     0x0000,
        0x0001,     0x0400,     0x3C00,       0x3C02,       1,      0x8000, 0x2E66,     0x7BFF,
        0xFC00,     0xFBFF,     0x3C01,       0xBC01,       0xBC00, 0x3C01, 0x33800000, 0x477FE000,
        2,          4,          (unsigned)-2, (unsigned)-3, 3,      32767,  0,          0,
        32767,      0x6800,     0x6802,       0x6801,       0x7C00, 0x7BFF, 0x3C00,     0x7C00,
        0x7BFF,     0x0200,     0x0000,       0x7C00,       0x3555, 0x3DA8, 0x3C00,     0x0000,
        0x0FFE,     0xF3FF,     0x3C00,       0x0000,       0x8000, 1,      6,          0x7C002E66,
        0x40803E00, 0x42004480, 0x0000FFFF,   0x4920C480,   0x3F80, 0x3F82, 0x7F80,     0x7F7F,
        0x3F90,     0x3D01};
    float *in;
    double *d;
    int *ints;
    unsigned *out;
    cudaMallocManaged(&in, 34 * sizeof(float));
    cudaMallocManaged(&d, sizeof(double));
    cudaMallocManaged(&ints, 3 * sizeof(int));
    cudaMallocManaged(&out, n_results * sizeof(unsigned));
    const float init[34] = {1.0f,
                            65504.0f,
                            65519.0f,
                            65520.0f,
                            1e10f,
                            0x1p-24f,
                            0x1p-25f,
                            0x1.8p-25f,
                            1.0f + 0x1p-11f,
                            1.0f + 0x3p-11f,
                            1.0f + 0x1p-20f,
                            NAN,
                            -0.0f,
                            0.1f,
                            2.5f,
                            3.5f,
                            0x1p-14f,
                            1.0f + 0x1p-8f,
                            1.0f + 0x3p-8f,
                            3.40282347e38f,
                            0.75f,
                            0.5f,
                            0.25f,
                            256.0f,
                            3.0f,
                            2.0f,
                            1.0f + 0x1p-10f,
                            1.0f - 0x1p-11f,
                            -0.5625f,
                            29120.0f,
                            0x1.078p-15f,
                            8.0f,
                            16.0f,
                            -1.0f};
    std::memcpy(in, init, sizeof init);
    d[0] = 1.0 + 0x1p-11 + 0x1p-40;
    ints[0] = 2049, ints[1] = 2051, ints[2] = 70000;
    std::memset(out, 0, n_results * sizeof(unsigned));
    values<<<1, 1>>>(in, d, ints, out);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
      std::printf("values: %s\n", cudaGetErrorName(e));
      return 1;
    }
    int wrong = 0;
    for (int i = 0; i < n_results - 2; ++i)
      if (out[i] != want[i])
        std::printf("result %d: 0x%X, a GPU gives 0x%X\n", i, out[i], want[i]), ++wrong;
    if (out[n_results - 1]) std::printf("the kernel made a different number of results\n"), ++wrong;
    __half *sum, *warp_sums;
    __half2 *sum2;
    cudaMallocManaged(&sum, sizeof(__half));
    cudaMallocManaged(&sum2, sizeof(__half2));
    cudaMallocManaged(&warp_sums, 2 * sizeof(__half));
    *sum = __float2half(0.0f);
    *sum2 = __floats2half2_rn(0.0f, 0.0f);
    warp_and_atomics<<<1, 64>>>(sum, sum2, warp_sums);
    e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
      std::printf("values: %s\n", cudaGetErrorName(e));
      return 1;
    }
    unsigned got[5] = {bits(warp_sums[0]), bits(warp_sums[1]), bits(*sum), bits(sum2->x),
                       bits(sum2->y)};
    const unsigned want_atomic[5] = {0x5000, 0x5000, 0x5000, 0x5400, 0x4C00};
    for (int i = 0; i < 5; ++i)
      if (got[i] != want_atomic[i])
        std::printf("shuffle/atomic %d: 0x%X, a GPU gives 0x%X\n", i, got[i], want_atomic[i]),
            ++wrong;
    if (wrong)
      std::printf("values: %d wrong\n", wrong);
    else
      std::printf("values: ok\n");
    return wrong ? 1 : 0;
  }
  if (!std::strcmp(c, "halves")) {
    __half *h;
    cudaMallocManaged(&h, 512 * sizeof(__half));
    for (int i = 0; i < 512; ++i) h[i] = __float2half((float)(i % 100));
    halves<<<2, 256>>>(h);
    cudaDeviceSynchronize();
    bool right = true;
    for (int i = 0; i < 512; ++i) right = right && __half2float(h[i]) == (float)(i % 100 * 3);
    return finish(c, right);
  }
  if (!std::strcmp(c, "half2_lanes")) {
    __half2 *v;
    cudaMallocManaged(&v, 64 * sizeof(__half2));
    for (int i = 0; i < 64; ++i) v[i] = __floats2half2_rn(1000.0f, 1000.0f);
    half2_lanes<<<1, 128>>>(v);
    cudaDeviceSynchronize();
    bool right = true;
    for (int i = 0; i < 64; ++i)
      right = right && __half2float(v[i].x) == 1000.0f + 2 * i &&
              __half2float(v[i].y) == 1001.0f + 2 * i;
    return finish(c, right);
  }
  if (!std::strcmp(c, "half_reduction")) {
    __half *in;
    float *out;
    cudaMallocManaged(&in, 128 * sizeof(__half));
    cudaMallocManaged(&out, sizeof(float));
    for (int i = 0; i < 128; ++i) in[i] = __float2half((float)(i % 8)); // sum 448, exact in half
    half_reduction<<<1, 128>>>(in, out);
    return finish(c, cudaDeviceSynchronize() == cudaSuccess && *out == 448.0f);
  }
  __half *h, *out;
  cudaMallocManaged(&h, 64 * sizeof(__half));
  cudaMallocManaged(&out, 64 * sizeof(__half));
  std::memset(h, 0, 64 * sizeof(__half));
  if (!std::strcmp(c, "half_race")) {
    half_race<<<1, 64>>>(h, out);
    return finish(c, true);
  }
  if (!std::strcmp(c, "half_race_shared")) {
    half_race_shared<<<1, 64>>>(out);
    return finish(c, true);
  }
  std::printf("unknown case '%s'\n", c);
  return 2;
}
