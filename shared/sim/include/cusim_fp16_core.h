/* cusim_fp16_core.h: the rounding that the simulator's cuda_fp16.h and cuda_bf16.h share.
 *
 * A GPU computes half (binary16) and bfloat16 arithmetic in hardware, rounding each result once,
 * to nearest even unless the name says otherwise, with subnormals kept (PTX ISA: add/mul/fma.f16
 * and .bf16, cvt.rn/rz/rm/rp.f16.f32). Here every operation is computed exactly or in double and
 * rounded once to the 16-bit format by round_bits(), which rounds a double as IEEE 754 says:
 *  - add, sub and mul of two halves are exact in double (at most 40 significant bits), so one
 *    rounding gives the correctly rounded result; for bfloat16, div and sqrt in either format,
 *    double's 53 bits are more than 2p+2 (p = 11 or 8), so rounding the double result again to
 *    the 16-bit format gives the correctly rounded result (double rounding is innocuous then);
 *  - fma rounds a*b+c once: a*b is exact in double, the sum is rounded to odd (TwoSum gives the
 *    exact error, and an inexact sum with an even last bit moves one step towards the error),
 *    and 53 >= p+2 makes that second rounding exact as well.
 * NaN results are the canonical NaN 0x7FFF of either format. */
#ifndef CUSIM_FP16_CORE_H
#define CUSIM_FP16_CORE_H
#pragma GCC system_header

#ifndef __cplusplus
#error "cusim: <cuda_fp16.h> and <cuda_bf16.h> are simulated for C++ (.cu) files only"
#endif

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace cusim {
namespace fp16 {

enum round_mode { rn, rz, rd, ru };

/* A 16-bit binary format: `frac` fraction bits, exponent bias, the biased exponent of inf/NaN. */
struct format {
  int frac;
  int bias;
  int exp_max; /* all ones */
};
constexpr format half_format{10, 15, 31};
constexpr format bf16_format{7, 127, 255};
constexpr uint16_t canonical_nan = 0x7FFF;

/* x rounded to the format, as bits. */
inline uint16_t round_bits(double x, format f, round_mode mode = rn) {
  if (std::isnan(x)) return canonical_nan;
  uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  double a = std::fabs(x);
  uint16_t inf = (uint16_t)(f.exp_max << f.frac);
  uint16_t max_finite = (uint16_t)(inf - 1);
  bool up_on_overflow = mode == rn || (mode == ru && !sign) || (mode == rd && sign);
  if (a == 0) return sign;
  if (std::isinf(a)) return sign | inf;
  int e;
  std::frexp(a, &e); /* a = m * 2^e, m in [0.5, 1): the unbiased exponent is e - 1 */
  int exp = e - 1;
  int emin = 1 - f.bias;
  if (exp > f.bias) return sign | (up_on_overflow ? inf : max_finite);
  int q = (exp < emin ? emin : exp) - f.frac; /* the spacing of the format near a is 2^q */
  double scaled = std::ldexp(a, -q);          /* exact: a power-of-two scaling */
  double n = std::floor(scaled);
  double rest = scaled - n; /* exact */
  bool odd = std::fmod(n, 2.0) != 0;
  bool up = false;
  switch (mode) {
  case rn:
    up = rest > 0.5 || (rest == 0.5 && odd);
    break;
  case rz:
    up = false;
    break;
  case ru:
    up = rest > 0 && !sign;
    break;
  case rd:
    up = rest > 0 && sign;
    break;
  }
  if (up) n += 1;
  uint32_t bits;
  if (exp < emin) {
    bits = (uint32_t)n; /* subnormal; 2^frac is the smallest normal number */
  } else {
    bits = ((uint32_t)(exp - emin + 1) << f.frac) + ((uint32_t)n - (1u << f.frac));
  }
  if (bits >= inf) return sign | (up_on_overflow ? inf : max_finite);
  return (uint16_t)(sign | bits);
}

/* The exact value of the bits, as a float (every half and bfloat16 value is a float). */
inline float to_float(uint16_t bits, format f) {
  uint32_t sign = bits & 0x8000u;
  int exp = (bits >> f.frac) & f.exp_max;
  uint32_t frac = bits & ((1u << f.frac) - 1);
  float v;
  if (exp == f.exp_max) {
    v = frac ? NAN : INFINITY;
  } else if (exp == 0) {
    v = std::ldexp((float)frac, 1 - f.bias - f.frac);
  } else {
    v = std::ldexp((float)(frac | (1u << f.frac)), exp - f.bias - f.frac);
  }
  return sign ? -v : v;
}

inline bool is_nan(uint16_t bits, format f) {
  return ((bits >> f.frac) & f.exp_max) == f.exp_max && (bits & ((1u << f.frac) - 1)) != 0;
}

/* a*b+c with one rounding (see the top of this file). */
inline uint16_t fma_bits(float a, float b, float c, format f, round_mode mode = rn) {
  double p = (double)a * (double)b; /* exact: at most 22 significant bits */
  double s = p + (double)c;
  if (std::isfinite(s) && std::isfinite(p)) {
    double bb = s - p;
    double err = (p - (s - bb)) + ((double)c - bb);
    if (err != 0) {
      uint64_t u;
      std::memcpy(&u, &s, sizeof u);
      if ((u & 1) == 0) s = std::nextafter(s, err > 0 ? INFINITY : -INFINITY);
    }
  }
  return round_bits(s, f, mode);
}

/* .sat: the result clamped to [0, 1], NaN to +0 (PTX ISA, add/mul/fma .sat). */
inline uint16_t saturate(uint16_t bits, format f) {
  if (is_nan(bits, f)) return 0;
  float v = to_float(bits, f);
  if (v <= 0) return 0; /* -0 too */
  if (v >= 1) return round_bits(1.0, f);
  return bits;
}

/* cvt.rni/rzi/rmi/rpi to an integer type: NaN gives 0, out of range the nearest end. */
template <class I> inline I to_integer(uint16_t bits, format f, round_mode mode) {
  if (is_nan(bits, f)) return 0;
  double v = to_float(bits, f);
  switch (mode) {
  case rn:
    v = std::nearbyint(v);
    break; /* the host rounds to nearest even */
  case rz:
    v = std::trunc(v);
    break;
  case rd:
    v = std::floor(v);
    break;
  case ru:
    v = std::ceil(v);
    break;
  }
  using lim = std::numeric_limits<I>;
  if (v <= (double)lim::min()) return lim::min();
  if (v >= (double)lim::max()) return lim::max();
  return (I)v;
}

/* One 16-bit atomic read-modify-write (the simulator's atomics are real ones: see the
   __tsan_atomic callbacks in runtime/instrument.cpp). */
template <class Op> inline uint16_t atomic_update(uint16_t *p, Op op) {
  uint16_t old, desired;
  __atomic_load(p, &old, __ATOMIC_RELAXED);
  do {
    desired = op(old);
  } while (!__atomic_compare_exchange(p, &old, &desired, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
  return old;
}

} // namespace fp16
} // namespace cusim

#endif
