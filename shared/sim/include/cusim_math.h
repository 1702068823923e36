/* Math functions and intrinsics of CUDA's device code, for CPU simulator builds (shared/sim).
 *
 * Included by the simulator's runtime headers. The double-underscore intrinsics (__popc,
 * __float_as_int, __expf, ...) are available from C and C++; the unqualified names CUDA adds to
 * the global namespace (rsqrtf, normcdff, sincospif, min and max overloads, ...) only from C++,
 * as in CUDA, where kernels are C++.
 *
 * Fast-math intrinsics (__expf, __logf, __sinf, __cosf, __powf, __fdividef, ...) run on a GPU's
 * special function units with a few bits less accuracy; here they call the accurate C library
 * function, so results can differ from a GPU's in the last bits. The _rn/_rz arithmetic
 * intrinsics round as their names say (the host works in round-to-nearest). */
#ifndef CUSIM_MATH_H
#define CUSIM_MATH_H

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
#define CUSIM_MATH_FN inline
#else
#define CUSIM_MATH_FN static inline
#endif

/* Bit reinterpretation --------------------------------------------------------------------------
 */

CUSIM_MATH_FN int __float_as_int(float x) {
  int r;
  memcpy(&r, &x, sizeof r);
  return r;
}
CUSIM_MATH_FN unsigned int __float_as_uint(float x) {
  unsigned int r;
  memcpy(&r, &x, sizeof r);
  return r;
}
CUSIM_MATH_FN float __int_as_float(int x) {
  float r;
  memcpy(&r, &x, sizeof r);
  return r;
}
CUSIM_MATH_FN float __uint_as_float(unsigned int x) {
  float r;
  memcpy(&r, &x, sizeof r);
  return r;
}
CUSIM_MATH_FN long long __double_as_longlong(double x) {
  long long r;
  memcpy(&r, &x, sizeof r);
  return r;
}
CUSIM_MATH_FN double __longlong_as_double(long long x) {
  double r;
  memcpy(&r, &x, sizeof r);
  return r;
}
CUSIM_MATH_FN int __double2hiint(double x) {
  return (int)((unsigned long long)__double_as_longlong(x) >> 32);
}
CUSIM_MATH_FN int __double2loint(double x) {
  return (int)(unsigned int)(unsigned long long)__double_as_longlong(x);
}
CUSIM_MATH_FN double __hiloint2double(int hi, int lo) {
  return __longlong_as_double(
      (long long)(((unsigned long long)(unsigned int)hi << 32) | (unsigned int)lo));
}

/* Conversions: float to integer saturates and maps NaN to 0, as the GPU's cvt does ------------- */

CUSIM_MATH_FN int cusim_float_to_int(double rounded) {
  if (rounded != rounded) {
    return 0;
  }
  if (rounded >= 2147483647.0) {
    return INT_MAX;
  }
  if (rounded <= -2147483648.0) {
    return INT_MIN;
  }
  return (int)rounded;
}
CUSIM_MATH_FN unsigned int cusim_float_to_uint(double rounded) {
  if (rounded != rounded || rounded <= 0.0) {
    return 0;
  }
  if (rounded >= 4294967295.0) {
    return UINT_MAX;
  }
  return (unsigned int)rounded;
}
CUSIM_MATH_FN long long cusim_float_to_ll(double rounded) {
  if (rounded != rounded) {
    return LLONG_MIN; /* what the GPU returns for NaN in 64-bit conversions */
  }
  if (rounded >= 9223372036854775807.0) {
    return LLONG_MAX;
  }
  if (rounded <= -9223372036854775808.0) {
    return LLONG_MIN;
  }
  return (long long)rounded;
}
CUSIM_MATH_FN unsigned long long cusim_float_to_ull(double rounded) {
  if (rounded != rounded) {
    return 1ull << 63;
  }
  if (rounded <= 0.0) {
    return 0;
  }
  if (rounded >= 18446744073709551615.0) {
    return ULLONG_MAX;
  }
  return (unsigned long long)rounded;
}

/* nearbyint rounds half to even in the default rounding mode: CUDA's _rn. */
CUSIM_MATH_FN int __float2int_rn(float x) {
  return cusim_float_to_int(nearbyint((double)x));
}
CUSIM_MATH_FN int __float2int_rz(float x) {
  return cusim_float_to_int(trunc((double)x));
}
CUSIM_MATH_FN int __float2int_rd(float x) {
  return cusim_float_to_int(floor((double)x));
}
CUSIM_MATH_FN int __float2int_ru(float x) {
  return cusim_float_to_int(ceil((double)x));
}
CUSIM_MATH_FN unsigned int __float2uint_rn(float x) {
  return cusim_float_to_uint(nearbyint((double)x));
}
CUSIM_MATH_FN unsigned int __float2uint_rz(float x) {
  return cusim_float_to_uint(trunc((double)x));
}
CUSIM_MATH_FN unsigned int __float2uint_rd(float x) {
  return cusim_float_to_uint(floor((double)x));
}
CUSIM_MATH_FN unsigned int __float2uint_ru(float x) {
  return cusim_float_to_uint(ceil((double)x));
}
CUSIM_MATH_FN long long __float2ll_rn(float x) {
  return cusim_float_to_ll(nearbyint((double)x));
}
CUSIM_MATH_FN long long __float2ll_rz(float x) {
  return cusim_float_to_ll(trunc((double)x));
}
CUSIM_MATH_FN unsigned long long __float2ull_rn(float x) {
  return cusim_float_to_ull(nearbyint((double)x));
}
CUSIM_MATH_FN unsigned long long __float2ull_rz(float x) {
  return cusim_float_to_ull(trunc((double)x));
}
CUSIM_MATH_FN int __double2int_rn(double x) {
  return cusim_float_to_int(nearbyint(x));
}
CUSIM_MATH_FN int __double2int_rz(double x) {
  return cusim_float_to_int(trunc(x));
}
CUSIM_MATH_FN int __double2int_rd(double x) {
  return cusim_float_to_int(floor(x));
}
CUSIM_MATH_FN int __double2int_ru(double x) {
  return cusim_float_to_int(ceil(x));
}
CUSIM_MATH_FN unsigned int __double2uint_rn(double x) {
  return cusim_float_to_uint(nearbyint(x));
}
CUSIM_MATH_FN unsigned int __double2uint_rz(double x) {
  return cusim_float_to_uint(trunc(x));
}
CUSIM_MATH_FN long long __double2ll_rn(double x) {
  return cusim_float_to_ll(nearbyint(x));
}
CUSIM_MATH_FN long long __double2ll_rz(double x) {
  return cusim_float_to_ll(trunc(x));
}
CUSIM_MATH_FN unsigned long long __double2ull_rn(double x) {
  return cusim_float_to_ull(nearbyint(x));
}
CUSIM_MATH_FN unsigned long long __double2ull_rz(double x) {
  return cusim_float_to_ull(trunc(x));
}
CUSIM_MATH_FN float __double2float_rn(double x) {
  return (float)x;
}
CUSIM_MATH_FN float __double2float_rz(double x) {
  float f = (float)x;
  /* Step one float towards zero when round-to-nearest moved away from it. */
  if (isfinite(f) && fabs((double)f) > fabs(x)) {
    f = nextafterf(f, 0.0f);
  }
  if (isinf(f) && !isinf(x)) {
    f = f > 0 ? 3.40282347e+38f : -3.40282347e+38f;
  }
  return f;
}
CUSIM_MATH_FN float __int2float_rn(int x) {
  return (float)x;
}
CUSIM_MATH_FN float __uint2float_rn(unsigned int x) {
  return (float)x;
}
CUSIM_MATH_FN float __ll2float_rn(long long x) {
  return (float)x;
}
CUSIM_MATH_FN float __ull2float_rn(unsigned long long x) {
  return (float)x;
}
CUSIM_MATH_FN double __int2double_rn(int x) {
  return (double)x;
}
CUSIM_MATH_FN double __uint2double_rn(unsigned int x) {
  return (double)x;
}
CUSIM_MATH_FN double __ll2double_rn(long long x) {
  return (double)x;
}
CUSIM_MATH_FN double __ull2double_rn(unsigned long long x) {
  return (double)x;
}

/* Arithmetic with explicit rounding (round-to-nearest: the host's mode) ------------------------ */

CUSIM_MATH_FN float __fadd_rn(float a, float b) {
  return a + b;
}
CUSIM_MATH_FN float __fsub_rn(float a, float b) {
  return a - b;
}
CUSIM_MATH_FN float __fmul_rn(float a, float b) {
  return a * b;
}
CUSIM_MATH_FN float __fdiv_rn(float a, float b) {
  return a / b;
}
CUSIM_MATH_FN float __fmaf_rn(float a, float b, float c) {
  return fmaf(a, b, c);
}
CUSIM_MATH_FN float __frcp_rn(float a) {
  return 1.0f / a;
}
CUSIM_MATH_FN float __fsqrt_rn(float a) {
  return sqrtf(a);
}
CUSIM_MATH_FN float __frsqrt_rn(float a) {
  return (float)(1.0 / sqrt((double)a));
}
CUSIM_MATH_FN double __dadd_rn(double a, double b) {
  return a + b;
}
CUSIM_MATH_FN double __dsub_rn(double a, double b) {
  return a - b;
}
CUSIM_MATH_FN double __dmul_rn(double a, double b) {
  return a * b;
}
CUSIM_MATH_FN double __ddiv_rn(double a, double b) {
  return a / b;
}
CUSIM_MATH_FN double __fma_rn(double a, double b, double c) {
  return fma(a, b, c);
}
CUSIM_MATH_FN double __drcp_rn(double a) {
  return 1.0 / a;
}
CUSIM_MATH_FN double __dsqrt_rn(double a) {
  return sqrt(a);
}

/* Integer intrinsics --------------------------------------------------------------------------- */

CUSIM_MATH_FN int __popc(unsigned int x) {
  return __builtin_popcount(x);
}
CUSIM_MATH_FN int __popcll(unsigned long long x) {
  return __builtin_popcountll(x);
}
CUSIM_MATH_FN int __clz(int x) {
  return x == 0 ? 32 : __builtin_clz((unsigned int)x);
}
CUSIM_MATH_FN int __clzll(long long x) {
  return x == 0 ? 64 : __builtin_clzll((unsigned long long)x);
}
CUSIM_MATH_FN int __ffs(int x) {
  return __builtin_ffs(x);
}
CUSIM_MATH_FN int __ffsll(long long x) {
  return __builtin_ffsll(x);
}
CUSIM_MATH_FN unsigned int __brev(unsigned int x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  return __builtin_bswap32(x);
}
CUSIM_MATH_FN unsigned long long __brevll(unsigned long long x) {
  return ((unsigned long long)__brev((unsigned int)x) << 32) | __brev((unsigned int)(x >> 32));
}
/* Byte i of the result is byte (s >> 4i) & 7 of the eight bytes y:x (x holds bytes 0-3). */
CUSIM_MATH_FN unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  const unsigned long long bytes = ((unsigned long long)y << 32) | x;
  unsigned int result = 0;
  for (int i = 0; i < 4; ++i) {
    const unsigned int pick = (s >> (4 * i)) & 7u;
    result |= (unsigned int)((bytes >> (8 * pick)) & 0xffu) << (8 * i);
  }
  return result;
}
/* The low 24 bits of each operand, multiplied; the low 32 bits of the product. */
CUSIM_MATH_FN int __mul24(int x, int y) {
  const long long a = (int)((unsigned int)x << 8) >> 8; /* sign-extend bit 23 */
  const long long b = (int)((unsigned int)y << 8) >> 8;
  return (int)(unsigned int)(unsigned long long)(a * b);
}
CUSIM_MATH_FN unsigned int __umul24(unsigned int x, unsigned int y) {
  return (x & 0xffffffu) * (y & 0xffffffu);
}
CUSIM_MATH_FN int __mulhi(int x, int y) {
  return (int)(((long long)x * y) >> 32);
}
CUSIM_MATH_FN unsigned int __umulhi(unsigned int x, unsigned int y) {
  return (unsigned int)(((unsigned long long)x * y) >> 32);
}
CUSIM_MATH_FN long long __mul64hi(long long x, long long y) {
  return (long long)(((__int128)x * y) >> 64);
}
CUSIM_MATH_FN unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return (unsigned long long)(((unsigned __int128)x * y) >> 64);
}
CUSIM_MATH_FN unsigned int __sad(int x, int y, unsigned int z) {
  return z + (x > y ? (unsigned int)x - (unsigned int)y : (unsigned int)y - (unsigned int)x);
}
CUSIM_MATH_FN unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) {
  return z + (x > y ? x - y : y - x);
}
CUSIM_MATH_FN int __hadd(int x, int y) {
  return (int)(((long long)x + y) >> 1);
}
CUSIM_MATH_FN int __rhadd(int x, int y) {
  return (int)(((long long)x + y + 1) >> 1);
}
CUSIM_MATH_FN unsigned int __uhadd(unsigned int x, unsigned int y) {
  return (unsigned int)(((unsigned long long)x + y) >> 1);
}
CUSIM_MATH_FN unsigned int __urhadd(unsigned int x, unsigned int y) {
  return (unsigned int)(((unsigned long long)x + y + 1) >> 1);
}
/* The 64-bit value hi:lo shifted, keeping the upper (left) or lower (right) 32 bits. The _l/_r
 * forms take the shift modulo 32, the _lc/_rc forms clamp it to 32. */
CUSIM_MATH_FN unsigned int cusim_funnel_left(unsigned int lo, unsigned int hi, unsigned int n) {
  return (unsigned int)(((((unsigned long long)hi << 32) | lo) << n) >> 32);
}
CUSIM_MATH_FN unsigned int cusim_funnel_right(unsigned int lo, unsigned int hi, unsigned int n) {
  return (unsigned int)((((unsigned long long)hi << 32) | lo) >> n);
}
CUSIM_MATH_FN unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift) {
  return cusim_funnel_left(lo, hi, shift & 31u);
}
CUSIM_MATH_FN unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift) {
  return cusim_funnel_left(lo, hi, shift < 32u ? shift : 32u);
}
CUSIM_MATH_FN unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift) {
  return cusim_funnel_right(lo, hi, shift & 31u);
}
CUSIM_MATH_FN unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift) {
  return cusim_funnel_right(lo, hi, shift < 32u ? shift : 32u);
}

#include "cusim_simd.h"

/* Unqualified math functions CUDA adds (C++ only) --------------------------------------------- */

#ifdef __cplusplus

/* Fast-math intrinsics: accurate here, approximate on a GPU. C++ only: glibc declares most of
 * these names (without exporting them), which C could not redefine. noexcept matches those
 * declarations. */
inline float __expf(float x) noexcept {
  return expf(x);
}
inline float __exp10f(float x) noexcept {
  return powf(10.0f, x);
}
inline float __logf(float x) noexcept {
  return logf(x);
}
inline float __log2f(float x) noexcept {
  return log2f(x);
}
inline float __log10f(float x) noexcept {
  return log10f(x);
}
inline float __sinf(float x) noexcept {
  return sinf(x);
}
inline float __cosf(float x) noexcept {
  return cosf(x);
}
inline float __tanf(float x) noexcept {
  return tanf(x);
}
inline void __sincosf(float x, float *s, float *c) noexcept {
  *s = sinf(x);
  *c = cosf(x);
}
inline float __powf(float x, float y) noexcept {
  return powf(x, y);
}
inline float __fdividef(float x, float y) noexcept {
  return x / y;
}
inline float __saturatef(float x) noexcept {
  /* NaN becomes 0, as on the GPU. */
  return x >= 1.0f ? 1.0f : (x > 0.0f ? x : 0.0f);
}

/* Functions newer C libraries may declare themselves (C23 and GNU extensions): defined here only
 * where the C library lacks them, so the two never clash. */
#if defined(__GLIBC__) && defined(__USE_GNU)
#define CUSIM_LIBC_HAS_GNU_MATH 1
#else
#define CUSIM_LIBC_HAS_GNU_MATH 0
#endif
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 41)) &&          \
    defined(__USE_GNU)
#define CUSIM_LIBC_HAS_C23_PI 1
#else
#define CUSIM_LIBC_HAS_C23_PI 0
#endif
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 42)) &&          \
    defined(__USE_GNU)
#define CUSIM_LIBC_HAS_C23_RSQRT 1
#else
#define CUSIM_LIBC_HAS_C23_RSQRT 0
#endif

#if !CUSIM_LIBC_HAS_C23_RSQRT
inline float rsqrtf(float x) {
  return (float)(1.0 / sqrt((double)x));
}
inline double rsqrt(double x) {
  return 1.0 / sqrt(x);
}
#endif
inline float rcbrtf(float x) {
  return (float)(1.0 / cbrt((double)x));
}
inline double rcbrt(double x) {
  return 1.0 / cbrt(x);
}
inline float fdividef(float x, float y) {
  return x / y;
}

#if !CUSIM_LIBC_HAS_GNU_MATH
inline float exp10f(float x) {
  return powf(10.0f, x);
}
inline double exp10(double x) {
  return pow(10.0, x);
}
inline void sincosf(float x, float *s, float *c) {
  *s = sinf(x);
  *c = cosf(x);
}
inline void sincos(double x, double *s, double *c) {
  *s = sin(x);
  *c = cos(x);
}
#endif

/* sin(pi x) and cos(pi x), reduced exactly first so integers and halves give exact zeros. */
inline double cusim_sinpi(double x) {
  if (!isfinite(x)) {
    return x - x;
  }
  double r = remainder(x, 2.0); /* exact, in [-1, 1] */
  if (r == 0.0) {
    return copysign(0.0, x);
  }
  const double pi = 3.14159265358979323846;
  if (r > 0.5) {
    r = 1.0 - r;
  } else if (r < -0.5) {
    r = -1.0 - r;
  }
  return sin(pi * r);
}
inline double cusim_cospi(double x) {
  if (!isfinite(x)) {
    return x - x;
  }
  const double r = fabs(remainder(x, 2.0)); /* in [0, 1] */
  if (r == 0.5) {
    return 0.0;
  }
  const double pi = 3.14159265358979323846;
  return r < 0.5 ? cos(pi * r) : -cos(pi * (1.0 - r));
}
#if !CUSIM_LIBC_HAS_C23_PI
inline double sinpi(double x) {
  return cusim_sinpi(x);
}
inline double cospi(double x) {
  return cusim_cospi(x);
}
inline float sinpif(float x) {
  return (float)cusim_sinpi(x);
}
inline float cospif(float x) {
  return (float)cusim_cospi(x);
}
#endif
inline void sincospi(double x, double *s, double *c) {
  *s = cusim_sinpi(x);
  *c = cusim_cospi(x);
}
inline void sincospif(float x, float *s, float *c) {
  *s = (float)cusim_sinpi(x);
  *c = (float)cusim_cospi(x);
}

/* The standard normal distribution function and its inverse. */
inline double normcdf(double x) {
  return 0.5 * erfc(-x * 0.70710678118654752440);
}
inline float normcdff(float x) {
  return (float)normcdf(x);
}

/* Inverse error function: a rational start refined by Newton steps on erf. */
inline double erfinv(double y) {
  if (!(y > -1.0 && y < 1.0)) {
    if (y == 1.0) {
      return HUGE_VAL;
    }
    if (y == -1.0) {
      return -HUGE_VAL;
    }
    return NAN;
  }
  if (y == 0.0) {
    return y;
  }
  /* Giles' single-precision approximation as the starting point. */
  const double w = -log((1.0 - y) * (1.0 + y));
  double x;
  if (w < 5.0) {
    const double t = w - 2.5;
    double p = 2.81022636e-08;
    p = 3.43273939e-07 + p * t;
    p = -3.5233877e-06 + p * t;
    p = -4.39150654e-06 + p * t;
    p = 0.00021858087 + p * t;
    p = -0.00125372503 + p * t;
    p = -0.00417768164 + p * t;
    p = 0.246640727 + p * t;
    p = 1.50140941 + p * t;
    x = p * y;
  } else {
    const double t = sqrt(w) - 3.0;
    double p = -0.000200214257;
    p = 0.000100950558 + p * t;
    p = 0.00134934322 + p * t;
    p = -0.00367342844 + p * t;
    p = 0.00573950773 + p * t;
    p = -0.0076224613 + p * t;
    p = 0.00943887047 + p * t;
    p = 1.00167406 + p * t;
    p = 2.83297682 + p * t;
    x = p * y;
  }
  const double two_over_sqrt_pi = 1.12837916709551257390;
  for (int i = 0; i < 3; ++i) {
    const double err = erf(x) - y;
    x -= err / (two_over_sqrt_pi * exp(-x * x));
  }
  return x;
}
inline float erfinvf(float y) {
  return (float)erfinv(y);
}
inline double erfcinv(double y) {
  return erfinv(1.0 - y);
}
inline float erfcinvf(float y) {
  return (float)erfinv(1.0 - (double)y);
}
inline double normcdfinv(double p) {
  return -1.41421356237309504880 * erfcinv(2.0 * p);
}
inline float normcdfinvf(float p) {
  return (float)normcdfinv(p);
}

/* min and max: CUDA's overloads in the global namespace (std::min/max are untouched). Mixed
 * signed/unsigned operands compare as unsigned, as CUDA defines them. */
inline int min(int a, int b) {
  return a < b ? a : b;
}
inline unsigned int min(unsigned int a, unsigned int b) {
  return a < b ? a : b;
}
inline unsigned int min(int a, unsigned int b) {
  return min((unsigned int)a, b);
}
inline unsigned int min(unsigned int a, int b) {
  return min(a, (unsigned int)b);
}
inline long min(long a, long b) {
  return a < b ? a : b;
}
inline unsigned long min(unsigned long a, unsigned long b) {
  return a < b ? a : b;
}
inline unsigned long min(long a, unsigned long b) {
  return min((unsigned long)a, b);
}
inline unsigned long min(unsigned long a, long b) {
  return min(a, (unsigned long)b);
}
inline long long min(long long a, long long b) {
  return a < b ? a : b;
}
inline unsigned long long min(unsigned long long a, unsigned long long b) {
  return a < b ? a : b;
}
inline unsigned long long min(long long a, unsigned long long b) {
  return min((unsigned long long)a, b);
}
inline unsigned long long min(unsigned long long a, long long b) {
  return min(a, (unsigned long long)b);
}
inline float min(float a, float b) {
  return fminf(a, b);
}
inline double min(double a, double b) {
  return fmin(a, b);
}
inline double min(float a, double b) {
  return fmin((double)a, b);
}
inline double min(double a, float b) {
  return fmin(a, (double)b);
}

inline int max(int a, int b) {
  return a > b ? a : b;
}
inline unsigned int max(unsigned int a, unsigned int b) {
  return a > b ? a : b;
}
inline unsigned int max(int a, unsigned int b) {
  return max((unsigned int)a, b);
}
inline unsigned int max(unsigned int a, int b) {
  return max(a, (unsigned int)b);
}
inline long max(long a, long b) {
  return a > b ? a : b;
}
inline unsigned long max(unsigned long a, unsigned long b) {
  return a > b ? a : b;
}
inline unsigned long max(long a, unsigned long b) {
  return max((unsigned long)a, b);
}
inline unsigned long max(unsigned long a, long b) {
  return max(a, (unsigned long)b);
}
inline long long max(long long a, long long b) {
  return a > b ? a : b;
}
inline unsigned long long max(unsigned long long a, unsigned long long b) {
  return a > b ? a : b;
}
inline unsigned long long max(long long a, unsigned long long b) {
  return max((unsigned long long)a, b);
}
inline unsigned long long max(unsigned long long a, long long b) {
  return max(a, (unsigned long long)b);
}
inline float max(float a, float b) {
  return fmaxf(a, b);
}
inline double max(double a, double b) {
  return fmax(a, b);
}
inline double max(float a, double b) {
  return fmax((double)a, b);
}
inline double max(double a, float b) {
  return fmax(a, (double)b);
}

inline unsigned int umin(unsigned int a, unsigned int b) {
  return a < b ? a : b;
}
inline unsigned int umax(unsigned int a, unsigned int b) {
  return a > b ? a : b;
}
inline long long llmin(long long a, long long b) {
  return a < b ? a : b;
}
inline long long llmax(long long a, long long b) {
  return a > b ? a : b;
}
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) {
  return a < b ? a : b;
}
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) {
  return a > b ? a : b;
}

#endif /* __cplusplus */

#endif /* CUSIM_MATH_H */
