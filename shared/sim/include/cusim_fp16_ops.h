/* cusim_fp16_ops.h: the operations that cuda_fp16.h and cuda_bf16.h define alike, for one
 * 16-bit type and its pair. Included twice, with CUSIM_H (the type: __half, __nv_bfloat16),
 * CUSIM_H2 (its pair) and CUSIM_FMT (its format in cusim_fp16_core.h) defined; every name is
 * overloaded on the type, as CUDA's are. Rounding: see cusim_fp16_core.h. No include guard. */
#pragma GCC system_header

namespace cusim {
namespace fp16 {
inline uint16_t bits_of(CUSIM_H h) {
  uint16_t b;
  std::memcpy(&b, &h, sizeof b);
  return b;
}
inline CUSIM_H from_bits_of(CUSIM_H *, uint16_t b) {
  CUSIM_H h;
  std::memcpy(&h, &b, sizeof b);
  return h;
}
inline float value_of(CUSIM_H h) {
  return to_float(bits_of(h), CUSIM_FMT);
}
} // namespace fp16
} // namespace cusim

#define CUSIM_MAKE(b) ::cusim::fp16::from_bits_of((CUSIM_H *)nullptr, (uint16_t)(b))
#define CUSIM_VAL(h) ::cusim::fp16::value_of(h)
#define CUSIM_ROUND(d) CUSIM_MAKE(::cusim::fp16::round_bits((double)(d), ::cusim::fp16::CUSIM_FMT))
#define CUSIM_PAIR(f, a, b) CUSIM_H2(f((a).x, (b).x), f((a).y, (b).y))

/* Arithmetic: one rounding to nearest even. */
inline CUSIM_H __hadd(const CUSIM_H a, const CUSIM_H b) {
  return CUSIM_ROUND((double)CUSIM_VAL(a) + (double)CUSIM_VAL(b));
}
inline CUSIM_H __hsub(const CUSIM_H a, const CUSIM_H b) {
  return CUSIM_ROUND((double)CUSIM_VAL(a) - (double)CUSIM_VAL(b));
}
inline CUSIM_H __hmul(const CUSIM_H a, const CUSIM_H b) {
  return CUSIM_ROUND((double)CUSIM_VAL(a) * (double)CUSIM_VAL(b));
}
inline CUSIM_H __hdiv(const CUSIM_H a, const CUSIM_H b) {
  return CUSIM_ROUND((double)CUSIM_VAL(a) / (double)CUSIM_VAL(b));
}
inline CUSIM_H __hadd_rn(const CUSIM_H a, const CUSIM_H b) {
  return __hadd(a, b);
}
inline CUSIM_H __hsub_rn(const CUSIM_H a, const CUSIM_H b) {
  return __hsub(a, b);
}
inline CUSIM_H __hmul_rn(const CUSIM_H a, const CUSIM_H b) {
  return __hmul(a, b);
}
inline CUSIM_H __hfma(const CUSIM_H a, const CUSIM_H b, const CUSIM_H c) {
  return CUSIM_MAKE(
      ::cusim::fp16::fma_bits(CUSIM_VAL(a), CUSIM_VAL(b), CUSIM_VAL(c), ::cusim::fp16::CUSIM_FMT));
}
inline CUSIM_H __hadd_sat(const CUSIM_H a, const CUSIM_H b) {
  return CUSIM_MAKE(
      ::cusim::fp16::saturate(::cusim::fp16::bits_of(__hadd(a, b)), ::cusim::fp16::CUSIM_FMT));
}
inline CUSIM_H __hsub_sat(const CUSIM_H a, const CUSIM_H b) {
  return CUSIM_MAKE(
      ::cusim::fp16::saturate(::cusim::fp16::bits_of(__hsub(a, b)), ::cusim::fp16::CUSIM_FMT));
}
inline CUSIM_H __hmul_sat(const CUSIM_H a, const CUSIM_H b) {
  return CUSIM_MAKE(
      ::cusim::fp16::saturate(::cusim::fp16::bits_of(__hmul(a, b)), ::cusim::fp16::CUSIM_FMT));
}
inline CUSIM_H __hfma_sat(const CUSIM_H a, const CUSIM_H b, const CUSIM_H c) {
  return CUSIM_MAKE(
      ::cusim::fp16::saturate(::cusim::fp16::bits_of(__hfma(a, b, c)), ::cusim::fp16::CUSIM_FMT));
}
/* fma.rn.relu: negative results become +0, NaN stays the canonical NaN. */
inline CUSIM_H __hfma_relu(const CUSIM_H a, const CUSIM_H b, const CUSIM_H c) {
  CUSIM_H r = __hfma(a, b, c);
  uint16_t rb = ::cusim::fp16::bits_of(r);
  if (::cusim::fp16::is_nan(rb, ::cusim::fp16::CUSIM_FMT)) return r;
  return (rb & 0x8000u) ? CUSIM_MAKE(0) : r;
}
inline CUSIM_H __hneg(const CUSIM_H a) {
  return CUSIM_MAKE(::cusim::fp16::bits_of(a) ^ 0x8000u);
}
inline CUSIM_H __habs(const CUSIM_H a) {
  return CUSIM_MAKE(::cusim::fp16::bits_of(a) & 0x7FFFu);
}

/* Comparisons: ordered ones are false on NaN, the ones ending in u (unordered) true. */
inline bool __hisnan(const CUSIM_H a) {
  return ::cusim::fp16::is_nan(::cusim::fp16::bits_of(a), ::cusim::fp16::CUSIM_FMT);
}
inline int __hisinf(const CUSIM_H a) {
  float v = CUSIM_VAL(a);
  return std::isinf(v) ? (v < 0 ? -1 : 1) : 0;
}
inline bool __heq(const CUSIM_H a, const CUSIM_H b) {
  return CUSIM_VAL(a) == CUSIM_VAL(b);
}
inline bool __hne(const CUSIM_H a, const CUSIM_H b) {
  return !__hisnan(a) && !__hisnan(b) && CUSIM_VAL(a) != CUSIM_VAL(b);
}
inline bool __hlt(const CUSIM_H a, const CUSIM_H b) {
  return CUSIM_VAL(a) < CUSIM_VAL(b);
}
inline bool __hle(const CUSIM_H a, const CUSIM_H b) {
  return CUSIM_VAL(a) <= CUSIM_VAL(b);
}
inline bool __hgt(const CUSIM_H a, const CUSIM_H b) {
  return CUSIM_VAL(a) > CUSIM_VAL(b);
}
inline bool __hge(const CUSIM_H a, const CUSIM_H b) {
  return CUSIM_VAL(a) >= CUSIM_VAL(b);
}
inline bool __hequ(const CUSIM_H a, const CUSIM_H b) {
  return !(CUSIM_VAL(a) != CUSIM_VAL(b));
}
inline bool __hneu(const CUSIM_H a, const CUSIM_H b) {
  return CUSIM_VAL(a) != CUSIM_VAL(b);
}
inline bool __hltu(const CUSIM_H a, const CUSIM_H b) {
  return !(CUSIM_VAL(a) >= CUSIM_VAL(b));
}
inline bool __hleu(const CUSIM_H a, const CUSIM_H b) {
  return !(CUSIM_VAL(a) > CUSIM_VAL(b));
}
inline bool __hgtu(const CUSIM_H a, const CUSIM_H b) {
  return !(CUSIM_VAL(a) <= CUSIM_VAL(b));
}
inline bool __hgeu(const CUSIM_H a, const CUSIM_H b) {
  return !(CUSIM_VAL(a) < CUSIM_VAL(b));
}

/* max/min: a NaN operand gives the other one (both NaN: the canonical NaN); max(+0, -0) is +0,
   min(+0, -0) is -0. The _nan forms give the canonical NaN when either operand is NaN. */
inline CUSIM_H __hmax(const CUSIM_H a, const CUSIM_H b) {
  if (__hisnan(a) && __hisnan(b)) return CUSIM_MAKE(::cusim::fp16::canonical_nan);
  if (__hisnan(a)) return b;
  if (__hisnan(b)) return a;
  if (__heq(a, b)) return (::cusim::fp16::bits_of(a) & 0x8000u) ? b : a;
  return __hgt(a, b) ? a : b;
}
inline CUSIM_H __hmin(const CUSIM_H a, const CUSIM_H b) {
  if (__hisnan(a) && __hisnan(b)) return CUSIM_MAKE(::cusim::fp16::canonical_nan);
  if (__hisnan(a)) return b;
  if (__hisnan(b)) return a;
  if (__heq(a, b)) return (::cusim::fp16::bits_of(a) & 0x8000u) ? a : b;
  return __hlt(a, b) ? a : b;
}
inline CUSIM_H __hmax_nan(const CUSIM_H a, const CUSIM_H b) {
  if (__hisnan(a) || __hisnan(b)) return CUSIM_MAKE(::cusim::fp16::canonical_nan);
  return __hmax(a, b);
}
inline CUSIM_H __hmin_nan(const CUSIM_H a, const CUSIM_H b) {
  if (__hisnan(a) || __hisnan(b)) return CUSIM_MAKE(::cusim::fp16::canonical_nan);
  return __hmin(a, b);
}

/* Math functions. A GPU computes these in float with its approximate instructions
   (sqrt.approx, rsqrt.approx, ex2.approx, ...) and rounds to 16 bits; here the host's float
   function is rounded once, so a result can differ from a GPU's in the last bit in rare cases,
   as the simulator's float math functions can. hrint, hceil, hfloor and htrunc are exact. */
#define CUSIM_MATH1(name, expr)                                                                    \
  inline CUSIM_H name(const CUSIM_H a) {                                                           \
    float x = CUSIM_VAL(a);                                                                        \
    return CUSIM_ROUND(expr);                                                                      \
  }
CUSIM_MATH1(hsqrt, std::sqrt((double)x))
CUSIM_MATH1(hrsqrt, 1.0 / std::sqrt((double)x))
CUSIM_MATH1(hrcp, 1.0 / (double)x)
CUSIM_MATH1(hexp, std::exp(x))
CUSIM_MATH1(hexp2, std::exp2(x))
CUSIM_MATH1(hexp10, std::pow(10.0f, x))
CUSIM_MATH1(hlog, std::log(x))
CUSIM_MATH1(hlog2, std::log2(x))
CUSIM_MATH1(hlog10, std::log10(x))
CUSIM_MATH1(hsin, std::sin(x))
CUSIM_MATH1(hcos, std::cos(x))
CUSIM_MATH1(htanh, std::tanh(x))
CUSIM_MATH1(htanh_approx, std::tanh(x))
CUSIM_MATH1(hrint, std::nearbyint(x))
CUSIM_MATH1(hceil, std::ceil(x))
CUSIM_MATH1(hfloor, std::floor(x))
CUSIM_MATH1(htrunc, std::trunc(x))
#undef CUSIM_MATH1

/* Pairs: each lane on its own. */
inline CUSIM_H2 __hadd2(const CUSIM_H2 a, const CUSIM_H2 b) {
  return CUSIM_PAIR(__hadd, a, b);
}
inline CUSIM_H2 __hsub2(const CUSIM_H2 a, const CUSIM_H2 b) {
  return CUSIM_PAIR(__hsub, a, b);
}
inline CUSIM_H2 __hmul2(const CUSIM_H2 a, const CUSIM_H2 b) {
  return CUSIM_PAIR(__hmul, a, b);
}
inline CUSIM_H2 __h2div(const CUSIM_H2 a, const CUSIM_H2 b) {
  return CUSIM_PAIR(__hdiv, a, b);
}
inline CUSIM_H2 __hadd2_rn(const CUSIM_H2 a, const CUSIM_H2 b) {
  return CUSIM_PAIR(__hadd, a, b);
}
inline CUSIM_H2 __hsub2_rn(const CUSIM_H2 a, const CUSIM_H2 b) {
  return CUSIM_PAIR(__hsub, a, b);
}
inline CUSIM_H2 __hmul2_rn(const CUSIM_H2 a, const CUSIM_H2 b) {
  return CUSIM_PAIR(__hmul, a, b);
}
inline CUSIM_H2 __hadd2_sat(const CUSIM_H2 a, const CUSIM_H2 b) {
  return CUSIM_PAIR(__hadd_sat, a, b);
}
inline CUSIM_H2 __hsub2_sat(const CUSIM_H2 a, const CUSIM_H2 b) {
  return CUSIM_PAIR(__hsub_sat, a, b);
}
inline CUSIM_H2 __hmul2_sat(const CUSIM_H2 a, const CUSIM_H2 b) {
  return CUSIM_PAIR(__hmul_sat, a, b);
}
inline CUSIM_H2 __hmax2(const CUSIM_H2 a, const CUSIM_H2 b) {
  return CUSIM_PAIR(__hmax, a, b);
}
inline CUSIM_H2 __hmin2(const CUSIM_H2 a, const CUSIM_H2 b) {
  return CUSIM_PAIR(__hmin, a, b);
}
inline CUSIM_H2 __hmax2_nan(const CUSIM_H2 a, const CUSIM_H2 b) {
  return CUSIM_PAIR(__hmax_nan, a, b);
}
inline CUSIM_H2 __hmin2_nan(const CUSIM_H2 a, const CUSIM_H2 b) {
  return CUSIM_PAIR(__hmin_nan, a, b);
}
inline CUSIM_H2 __hfma2(const CUSIM_H2 a, const CUSIM_H2 b, const CUSIM_H2 c) {
  return CUSIM_H2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
inline CUSIM_H2 __hfma2_sat(const CUSIM_H2 a, const CUSIM_H2 b, const CUSIM_H2 c) {
  return CUSIM_H2(__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y));
}
inline CUSIM_H2 __hfma2_relu(const CUSIM_H2 a, const CUSIM_H2 b, const CUSIM_H2 c) {
  return CUSIM_H2(__hfma_relu(a.x, b.x, c.x), __hfma_relu(a.y, b.y, c.y));
}
/* Complex multiply-add, in the order CUDA documents: re = (c.re + a.re*b.re) - a.im*b.im,
   im = (c.im + a.re*b.im) + a.im*b.re, each step one fma. */
inline CUSIM_H2 __hcmadd(const CUSIM_H2 a, const CUSIM_H2 b, const CUSIM_H2 c) {
  CUSIM_H re = __hfma(a.x, b.x, c.x);
  CUSIM_H im = __hfma(a.x, b.y, c.y);
  re = __hfma(__hneg(a.y), b.y, re);
  im = __hfma(a.y, b.x, im);
  return CUSIM_H2(re, im);
}
inline CUSIM_H2 __hneg2(const CUSIM_H2 a) {
  return CUSIM_H2(__hneg(a.x), __hneg(a.y));
}
inline CUSIM_H2 __habs2(const CUSIM_H2 a) {
  return CUSIM_H2(__habs(a.x), __habs(a.y));
}
#define CUSIM_MATH2(name, one)                                                                     \
  inline CUSIM_H2 name(const CUSIM_H2 a) {                                                         \
    return CUSIM_H2(one(a.x), one(a.y));                                                           \
  }
CUSIM_MATH2(h2sqrt, hsqrt)
CUSIM_MATH2(h2rsqrt, hrsqrt)
CUSIM_MATH2(h2rcp, hrcp)
CUSIM_MATH2(h2exp, hexp)
CUSIM_MATH2(h2exp2, hexp2)
CUSIM_MATH2(h2exp10, hexp10)
CUSIM_MATH2(h2log, hlog)
CUSIM_MATH2(h2log2, hlog2)
CUSIM_MATH2(h2log10, hlog10)
CUSIM_MATH2(h2sin, hsin)
CUSIM_MATH2(h2cos, hcos)
CUSIM_MATH2(h2tanh, htanh)
CUSIM_MATH2(h2tanh_approx, htanh_approx)
CUSIM_MATH2(h2rint, hrint)
CUSIM_MATH2(h2ceil, hceil)
CUSIM_MATH2(h2floor, hfloor)
CUSIM_MATH2(h2trunc, htrunc)
#undef CUSIM_MATH2

/* Pair comparisons: __heq2 & co. give 1.0 or 0.0 in each lane, __heq2_mask & co. 0xFFFF or 0
   in each lane's 16 bits, __hbeq2 & co. true when both lanes compare true. */
#define CUSIM_CMP2(op)                                                                             \
  inline CUSIM_H2 op##2(const CUSIM_H2 a, const CUSIM_H2 b) {                                      \
    return CUSIM_H2(CUSIM_ROUND(op(a.x, b.x) ? 1.0 : 0.0), CUSIM_ROUND(op(a.y, b.y) ? 1.0 : 0.0)); \
  }                                                                                                \
  inline unsigned op##2_mask(const CUSIM_H2 a, const CUSIM_H2 b) {                                 \
    return (op(a.x, b.x) ? 0xFFFFu : 0u) | (op(a.y, b.y) ? 0xFFFF0000u : 0u);                      \
  }                                                                                                \
  inline bool __hb##op##_impl(const CUSIM_H2 a, const CUSIM_H2 b) {                                \
    return op(a.x, b.x) && op(a.y, b.y);                                                           \
  }
CUSIM_CMP2(__heq)
CUSIM_CMP2(__hne)
CUSIM_CMP2(__hlt)
CUSIM_CMP2(__hle)
CUSIM_CMP2(__hgt)
CUSIM_CMP2(__hge)
CUSIM_CMP2(__hequ)
CUSIM_CMP2(__hneu)
CUSIM_CMP2(__hltu)
CUSIM_CMP2(__hleu)
CUSIM_CMP2(__hgtu)
CUSIM_CMP2(__hgeu)
#undef CUSIM_CMP2
inline bool __hbeq2(const CUSIM_H2 a, const CUSIM_H2 b) {
  return __hb__heq_impl(a, b);
}
inline bool __hbne2(const CUSIM_H2 a, const CUSIM_H2 b) {
  return __hb__hne_impl(a, b);
}
inline bool __hblt2(const CUSIM_H2 a, const CUSIM_H2 b) {
  return __hb__hlt_impl(a, b);
}
inline bool __hble2(const CUSIM_H2 a, const CUSIM_H2 b) {
  return __hb__hle_impl(a, b);
}
inline bool __hbgt2(const CUSIM_H2 a, const CUSIM_H2 b) {
  return __hb__hgt_impl(a, b);
}
inline bool __hbge2(const CUSIM_H2 a, const CUSIM_H2 b) {
  return __hb__hge_impl(a, b);
}
inline bool __hbequ2(const CUSIM_H2 a, const CUSIM_H2 b) {
  return __hb__hequ_impl(a, b);
}
inline bool __hbneu2(const CUSIM_H2 a, const CUSIM_H2 b) {
  return __hb__hneu_impl(a, b);
}
inline bool __hbltu2(const CUSIM_H2 a, const CUSIM_H2 b) {
  return __hb__hltu_impl(a, b);
}
inline bool __hbleu2(const CUSIM_H2 a, const CUSIM_H2 b) {
  return __hb__hleu_impl(a, b);
}
inline bool __hbgtu2(const CUSIM_H2 a, const CUSIM_H2 b) {
  return __hb__hgtu_impl(a, b);
}
inline bool __hbgeu2(const CUSIM_H2 a, const CUSIM_H2 b) {
  return __hb__hgeu_impl(a, b);
}
inline CUSIM_H2 __hisnan2(const CUSIM_H2 a) {
  return CUSIM_H2(CUSIM_ROUND(__hisnan(a.x) ? 1.0 : 0.0), CUSIM_ROUND(__hisnan(a.y) ? 1.0 : 0.0));
}

/* Operators (CUDA's: == and the orderings are the ordered comparisons, != the unordered one;
   on pairs they hold when both lanes do). */
inline CUSIM_H operator+(const CUSIM_H &a, const CUSIM_H &b) {
  return __hadd(a, b);
}
inline CUSIM_H operator-(const CUSIM_H &a, const CUSIM_H &b) {
  return __hsub(a, b);
}
inline CUSIM_H operator*(const CUSIM_H &a, const CUSIM_H &b) {
  return __hmul(a, b);
}
inline CUSIM_H operator/(const CUSIM_H &a, const CUSIM_H &b) {
  return __hdiv(a, b);
}
inline CUSIM_H &operator+=(CUSIM_H &a, const CUSIM_H &b) {
  return a = __hadd(a, b);
}
inline CUSIM_H &operator-=(CUSIM_H &a, const CUSIM_H &b) {
  return a = __hsub(a, b);
}
inline CUSIM_H &operator*=(CUSIM_H &a, const CUSIM_H &b) {
  return a = __hmul(a, b);
}
inline CUSIM_H &operator/=(CUSIM_H &a, const CUSIM_H &b) {
  return a = __hdiv(a, b);
}
inline CUSIM_H &operator++(CUSIM_H &a) {
  return a = __hadd(a, CUSIM_ROUND(1.0));
}
inline CUSIM_H &operator--(CUSIM_H &a) {
  return a = __hsub(a, CUSIM_ROUND(1.0));
}
inline CUSIM_H operator++(CUSIM_H &a, int) {
  CUSIM_H old = a;
  ++a;
  return old;
}
inline CUSIM_H operator--(CUSIM_H &a, int) {
  CUSIM_H old = a;
  --a;
  return old;
}
inline CUSIM_H operator+(const CUSIM_H &a) {
  return a;
}
inline CUSIM_H operator-(const CUSIM_H &a) {
  return __hneg(a);
}
inline bool operator==(const CUSIM_H &a, const CUSIM_H &b) {
  return __heq(a, b);
}
inline bool operator!=(const CUSIM_H &a, const CUSIM_H &b) {
  return __hneu(a, b);
}
inline bool operator<(const CUSIM_H &a, const CUSIM_H &b) {
  return __hlt(a, b);
}
inline bool operator<=(const CUSIM_H &a, const CUSIM_H &b) {
  return __hle(a, b);
}
inline bool operator>(const CUSIM_H &a, const CUSIM_H &b) {
  return __hgt(a, b);
}
inline bool operator>=(const CUSIM_H &a, const CUSIM_H &b) {
  return __hge(a, b);
}

inline CUSIM_H2 operator+(const CUSIM_H2 &a, const CUSIM_H2 &b) {
  return __hadd2(a, b);
}
inline CUSIM_H2 operator-(const CUSIM_H2 &a, const CUSIM_H2 &b) {
  return __hsub2(a, b);
}
inline CUSIM_H2 operator*(const CUSIM_H2 &a, const CUSIM_H2 &b) {
  return __hmul2(a, b);
}
inline CUSIM_H2 operator/(const CUSIM_H2 &a, const CUSIM_H2 &b) {
  return __h2div(a, b);
}
inline CUSIM_H2 &operator+=(CUSIM_H2 &a, const CUSIM_H2 &b) {
  return a = __hadd2(a, b);
}
inline CUSIM_H2 &operator-=(CUSIM_H2 &a, const CUSIM_H2 &b) {
  return a = __hsub2(a, b);
}
inline CUSIM_H2 &operator*=(CUSIM_H2 &a, const CUSIM_H2 &b) {
  return a = __hmul2(a, b);
}
inline CUSIM_H2 &operator/=(CUSIM_H2 &a, const CUSIM_H2 &b) {
  return a = __h2div(a, b);
}
inline CUSIM_H2 &operator++(CUSIM_H2 &a) {
  return a = CUSIM_H2(++a.x, ++a.y);
}
inline CUSIM_H2 &operator--(CUSIM_H2 &a) {
  return a = CUSIM_H2(--a.x, --a.y);
}
inline CUSIM_H2 operator++(CUSIM_H2 &a, int) {
  CUSIM_H2 old = a;
  ++a;
  return old;
}
inline CUSIM_H2 operator--(CUSIM_H2 &a, int) {
  CUSIM_H2 old = a;
  --a;
  return old;
}
inline CUSIM_H2 operator+(const CUSIM_H2 &a) {
  return a;
}
inline CUSIM_H2 operator-(const CUSIM_H2 &a) {
  return __hneg2(a);
}
inline bool operator==(const CUSIM_H2 &a, const CUSIM_H2 &b) {
  return __hbeq2(a, b);
}
inline bool operator!=(const CUSIM_H2 &a, const CUSIM_H2 &b) {
  return __hbneu2(a, b);
}
inline bool operator<(const CUSIM_H2 &a, const CUSIM_H2 &b) {
  return __hblt2(a, b);
}
inline bool operator<=(const CUSIM_H2 &a, const CUSIM_H2 &b) {
  return __hble2(a, b);
}
inline bool operator>(const CUSIM_H2 &a, const CUSIM_H2 &b) {
  return __hbgt2(a, b);
}
inline bool operator>=(const CUSIM_H2 &a, const CUSIM_H2 &b) {
  return __hbge2(a, b);
}

/* atomicAdd: a real atomic read-modify-write of the 16 bits, rounded to nearest even (PTX's
   atom.add.noftz.f16/.bf16); on a pair each lane is atomic on its own, as CUDA documents. */
inline CUSIM_H atomicAdd(CUSIM_H *address, const CUSIM_H val) {
  uint16_t old = ::cusim::fp16::atomic_update((uint16_t *)address, [val](uint16_t cur) {
    return ::cusim::fp16::bits_of(__hadd(CUSIM_MAKE(cur), val));
  });
  return CUSIM_MAKE(old);
}
inline CUSIM_H2 atomicAdd(CUSIM_H2 *address, const CUSIM_H2 val) {
  CUSIM_H lo = atomicAdd(&address->x, val.x);
  CUSIM_H hi = atomicAdd(&address->y, val.y);
  return CUSIM_H2(lo, hi);
}

/* Halves of a pair. */
inline CUSIM_H2 __lowhigh2highlow(const CUSIM_H2 a) {
  return CUSIM_H2(a.y, a.x);
}
inline float __low2float(const CUSIM_H2 a) {
  return CUSIM_VAL(a.x);
}
inline float __high2float(const CUSIM_H2 a) {
  return CUSIM_VAL(a.y);
}

#undef CUSIM_MAKE
#undef CUSIM_VAL
#undef CUSIM_ROUND
#undef CUSIM_PAIR
