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

/* x rounded to the format, as bits: integer operations on the double's fields (this runs for
   every half operation, so no frexp/ldexp). */
inline uint16_t round_bits(double x, format f, round_mode mode = rn) {
  uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  uint16_t sign = (u >> 63) ? 0x8000 : 0;
  int dexp = (int)((u >> 52) & 0x7FF);
  uint64_t sig = u & ((uint64_t(1) << 52) - 1);
  uint16_t inf = (uint16_t)(f.exp_max << f.frac);
  uint16_t max_finite = (uint16_t)(inf - 1);
  bool up_on_overflow = mode == rn || (mode == ru && !sign) || (mode == rd && sign);
  if (dexp == 0x7FF) return sig ? canonical_nan : (uint16_t)(sign | inf);
  if (dexp == 0 && sig == 0) return sign;
  /* x = sig * 2^(exp - 52), sig with its leading bit (a double subnormal is far below every
     16-bit value: only its sign and that it is not zero matter) */
  int exp = dexp ? dexp - 1023 : -1022;
  if (dexp) sig |= uint64_t(1) << 52;
  if (exp > f.bias) return (uint16_t)(sign | (up_on_overflow ? inf : max_finite));
  int emin = 1 - f.bias;
  /* the format's spacing near x is 2^q, q = max(exp, emin) - frac: drop `shift` low bits */
  int shift = 52 - f.frac + (exp < emin ? emin - exp : 0);
  uint64_t n;
  bool above_half, at_half, inexact;
  if (shift > 53) { /* x < half the spacing, not zero */
    n = 0, above_half = false, at_half = false, inexact = true;
  } else {
    n = sig >> shift;
    uint64_t rest = sig & ((uint64_t(1) << shift) - 1), half = uint64_t(1) << (shift - 1);
    above_half = rest > half, at_half = rest == half, inexact = rest != 0;
  }
  bool up = false;
  switch (mode) {
  case rn:
    up = above_half || (at_half && (n & 1));
    break;
  case rz:
    up = false;
    break;
  case ru:
    up = inexact && !sign;
    break;
  case rd:
    up = inexact && sign;
    break;
  }
  n += up;
  uint32_t bits;
  if (exp < emin) {
    bits = (uint32_t)n; /* subnormal; n = 2^frac is the smallest normal number */
  } else {
    bits = ((uint32_t)(exp - emin + 1) << f.frac) + ((uint32_t)n - (1u << f.frac));
  }
  if (bits >= inf) return (uint16_t)(sign | (up_on_overflow ? inf : max_finite));
  return (uint16_t)(sign | bits);
}

/* The value of the bits as a float (every half and bfloat16 value is one, exactly). */
inline float to_float(uint16_t bits, format f) {
  uint32_t sign = (uint32_t)(bits & 0x8000u) << 16;
  int exp = (bits >> f.frac) & f.exp_max;
  uint32_t frac = bits & ((1u << f.frac) - 1);
  uint32_t out;
  if (exp == f.exp_max && frac && f.bias == 15) {
    out = 0x7FFFFFFFu; /* a half NaN: the canonical float NaN, as CUDA's host code gives (a
                          GPU's cvt.f32.f16: unmeasured) */
  } else if (exp == f.exp_max) { /* infinities; a bfloat16 NaN keeps its payload (the upper half
                                    of a float) */
    out = sign | 0x7F800000u | (frac << (23 - f.frac));
  } else if (exp == 0) {
    if (f.bias == 127) { /* bfloat16: its subnormals are float's */
      out = sign | (frac << (23 - f.frac));
    } else { /* half: frac * 2^-24, a normal float */
      float v = (float)frac * (1.0f / 16777216.0f);
      std::memcpy(&out, &v, sizeof out);
      out |= sign;
    }
  } else {
    out = sign | (uint32_t)(exp - f.bias + 127) << 23 | (frac << (23 - f.frac));
  }
  float v;
  std::memcpy(&v, &out, sizeof v);
  return v;
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
