/* cuda_bf16.h for CPU simulator builds (shared/sim): the bfloat16 types __nv_bfloat16 and
 * __nv_bfloat162 (nv_bfloat16, nv_bfloat162), their conversions, arithmetic, comparisons, math
 * functions and atomicAdd, computed in software with a GPU's rounding (see cusim_fp16_core.h).
 * Warp shuffles and __ldg are the simulator's generic ones (cusim_device.h). A name this header
 * lacks stops the build as an undeclared name. */
#ifndef __CUDA_BF16_H__
#define __CUDA_BF16_H__
#define __CUDA_BF16_HPP__
#define __CUDA_BF16_TYPES_EXIST__
#pragma GCC system_header

#include "cuda_fp16.h"

struct alignas(2) __nv_bfloat16_raw {
  unsigned short x;
};
struct alignas(4) __nv_bfloat162_raw {
  unsigned short x;
  unsigned short y;
};

struct alignas(2) __nv_bfloat16 {
protected:
  unsigned short __x;

public:
  __nv_bfloat16() = default;
  constexpr __nv_bfloat16(const __nv_bfloat16_raw &hr) : __x(hr.x) {}
  __nv_bfloat16 &operator=(const __nv_bfloat16_raw &hr) {
    __x = hr.x;
    return *this;
  }
  volatile __nv_bfloat16 &operator=(const __nv_bfloat16_raw &hr) volatile {
    __x = hr.x;
    return *this;
  }
  operator __nv_bfloat16_raw() const { return __nv_bfloat16_raw{__x}; }
  operator __nv_bfloat16_raw() const volatile { return __nv_bfloat16_raw{__x}; }
  /* float, double and integers: rounded to nearest even. */
  __nv_bfloat16(const float f);
  __nv_bfloat16(const double f);
  explicit __nv_bfloat16(const __half f);
  __nv_bfloat16(const short v);
  __nv_bfloat16(const unsigned short v);
  __nv_bfloat16(const int v);
  __nv_bfloat16(const unsigned int v);
  __nv_bfloat16(const long v);
  __nv_bfloat16(const unsigned long v);
  __nv_bfloat16(const long long v);
  __nv_bfloat16(const unsigned long long v);
  __nv_bfloat16 &operator=(const float f) { return *this = __nv_bfloat16(f); }
  __nv_bfloat16 &operator=(const double f) { return *this = __nv_bfloat16(f); }
  __nv_bfloat16 &operator=(const short v) { return *this = __nv_bfloat16(v); }
  __nv_bfloat16 &operator=(const unsigned short v) { return *this = __nv_bfloat16(v); }
  __nv_bfloat16 &operator=(const int v) { return *this = __nv_bfloat16(v); }
  __nv_bfloat16 &operator=(const unsigned int v) { return *this = __nv_bfloat16(v); }
  __nv_bfloat16 &operator=(const long long v) { return *this = __nv_bfloat16(v); }
  __nv_bfloat16 &operator=(const unsigned long long v) { return *this = __nv_bfloat16(v); }
  operator float() const;
  /* To integers: towards zero, saturating, NaN gives 0 (cvt.rzi). */
  operator signed char() const;
  operator unsigned char() const;
  operator char() const;
  operator short() const;
  operator unsigned short() const;
  operator int() const;
  operator unsigned int() const;
  operator long() const;
  operator unsigned long() const;
  operator long long() const;
  operator unsigned long long() const;
  constexpr operator bool() const { return (__x & 0x7FFFu) != 0u; }
};

struct alignas(4) __nv_bfloat162 {
  __nv_bfloat16 x;
  __nv_bfloat16 y;
  __nv_bfloat162() = default;
  constexpr __nv_bfloat162(const __nv_bfloat16 &a, const __nv_bfloat16 &b) : x(a), y(b) {}
  __nv_bfloat162(const __nv_bfloat162_raw &r)
      : x(__nv_bfloat16_raw{r.x}), y(__nv_bfloat16_raw{r.y}) {}
  __nv_bfloat162 &operator=(const __nv_bfloat162_raw &r) { return *this = __nv_bfloat162(r); }
  operator __nv_bfloat162_raw() const {
    return __nv_bfloat162_raw{__nv_bfloat16_raw(x).x, __nv_bfloat16_raw(y).x};
  }
};

typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

#define CUSIM_BF16(b) __nv_bfloat16(__nv_bfloat16_raw{(unsigned short)(b)})
#define CUSIM_BBITS(h) (__nv_bfloat16_raw(h).x)
#define CUSIM_BF(mode) ::cusim::fp16::bf16_format, ::cusim::fp16::mode
inline __nv_bfloat16 __float2bfloat16_rn(const float a) {
  return CUSIM_BF16(::cusim::fp16::round_bits(a, CUSIM_BF(rn)));
}
inline __nv_bfloat16 __float2bfloat16(const float a) {
  return __float2bfloat16_rn(a);
}
inline __nv_bfloat16 __float2bfloat16_rz(const float a) {
  return CUSIM_BF16(::cusim::fp16::round_bits(a, CUSIM_BF(rz)));
}
inline __nv_bfloat16 __float2bfloat16_rd(const float a) {
  return CUSIM_BF16(::cusim::fp16::round_bits(a, CUSIM_BF(rd)));
}
inline __nv_bfloat16 __float2bfloat16_ru(const float a) {
  return CUSIM_BF16(::cusim::fp16::round_bits(a, CUSIM_BF(ru)));
}
inline __nv_bfloat16 __double2bfloat16(const double a) {
  return CUSIM_BF16(::cusim::fp16::round_bits(a, CUSIM_BF(rn)));
}
inline float __bfloat162float(const __nv_bfloat16 a) {
  return ::cusim::fp16::to_float(CUSIM_BBITS(a), ::cusim::fp16::bf16_format);
}
inline __nv_bfloat162 __float2bfloat162_rn(const float a) {
  return __nv_bfloat162(__float2bfloat16_rn(a), __float2bfloat16_rn(a));
}
inline __nv_bfloat162 __floats2bfloat162_rn(const float a, const float b) {
  return __nv_bfloat162(__float2bfloat16_rn(a), __float2bfloat16_rn(b));
}
inline __nv_bfloat162 __float22bfloat162_rn(const float2 a) {
  return __nv_bfloat162(__float2bfloat16_rn(a.x), __float2bfloat16_rn(a.y));
}
inline float2 __bfloat1622float2(const __nv_bfloat162 a) {
  float2 r;
  r.x = __bfloat162float(a.x);
  r.y = __bfloat162float(a.y);
  return r;
}
inline __nv_bfloat162 make_bfloat162(const __nv_bfloat16 x, const __nv_bfloat16 y) {
  return __nv_bfloat162(x, y);
}
inline __nv_bfloat16 __low2bfloat16(const __nv_bfloat162 a) {
  return a.x;
}
inline __nv_bfloat16 __high2bfloat16(const __nv_bfloat162 a) {
  return a.y;
}
inline __nv_bfloat162 __halves2bfloat162(const __nv_bfloat16 a, const __nv_bfloat16 b) {
  return __nv_bfloat162(a, b);
}
inline __nv_bfloat162 __bfloat162bfloat162(const __nv_bfloat16 a) {
  return __nv_bfloat162(a, a);
}
inline __nv_bfloat162 __lows2bfloat162(const __nv_bfloat162 a, const __nv_bfloat162 b) {
  return __nv_bfloat162(a.x, b.x);
}
inline __nv_bfloat162 __highs2bfloat162(const __nv_bfloat162 a, const __nv_bfloat162 b) {
  return __nv_bfloat162(a.y, b.y);
}
inline __nv_bfloat162 __low2bfloat162(const __nv_bfloat162 a) {
  return __nv_bfloat162(a.x, a.x);
}
inline __nv_bfloat162 __high2bfloat162(const __nv_bfloat162 a) {
  return __nv_bfloat162(a.y, a.y);
}
inline short __bfloat16_as_short(const __nv_bfloat16 h) {
  return (short)CUSIM_BBITS(h);
}
inline unsigned short __bfloat16_as_ushort(const __nv_bfloat16 h) {
  return CUSIM_BBITS(h);
}
inline __nv_bfloat16 __short_as_bfloat16(const short i) {
  return CUSIM_BF16(i);
}
inline __nv_bfloat16 __ushort_as_bfloat16(const unsigned short i) {
  return CUSIM_BF16(i);
}

#define CUSIM_BF16_INT(suffix, T)                                                                  \
  inline T __bfloat162##suffix##_rn(const __nv_bfloat16 h) {                                       \
    return ::cusim::fp16::to_integer<T>(CUSIM_BBITS(h), CUSIM_BF(rn));                             \
  }                                                                                                \
  inline T __bfloat162##suffix##_rz(const __nv_bfloat16 h) {                                       \
    return ::cusim::fp16::to_integer<T>(CUSIM_BBITS(h), CUSIM_BF(rz));                             \
  }                                                                                                \
  inline T __bfloat162##suffix##_rd(const __nv_bfloat16 h) {                                       \
    return ::cusim::fp16::to_integer<T>(CUSIM_BBITS(h), CUSIM_BF(rd));                             \
  }                                                                                                \
  inline T __bfloat162##suffix##_ru(const __nv_bfloat16 h) {                                       \
    return ::cusim::fp16::to_integer<T>(CUSIM_BBITS(h), CUSIM_BF(ru));                             \
  }                                                                                                \
  inline __nv_bfloat16 __##suffix##2bfloat16_rn(const T i) {                                       \
    return CUSIM_BF16(::cusim::fp16::round_bits((double)i, CUSIM_BF(rn)));                         \
  }                                                                                                \
  inline __nv_bfloat16 __##suffix##2bfloat16_rz(const T i) {                                       \
    return CUSIM_BF16(::cusim::fp16::round_bits((double)i, CUSIM_BF(rz)));                         \
  }                                                                                                \
  inline __nv_bfloat16 __##suffix##2bfloat16_rd(const T i) {                                       \
    return CUSIM_BF16(::cusim::fp16::round_bits((double)i, CUSIM_BF(rd)));                         \
  }                                                                                                \
  inline __nv_bfloat16 __##suffix##2bfloat16_ru(const T i) {                                       \
    return CUSIM_BF16(::cusim::fp16::round_bits((double)i, CUSIM_BF(ru)));                         \
  }
CUSIM_BF16_INT(int, int)
CUSIM_BF16_INT(uint, unsigned int)
CUSIM_BF16_INT(short, short)
CUSIM_BF16_INT(ushort, unsigned short)
CUSIM_BF16_INT(ll, long long)
CUSIM_BF16_INT(ull, unsigned long long)
#undef CUSIM_BF16_INT
inline signed char __bfloat162char_rz(const __nv_bfloat16 h) {
  return ::cusim::fp16::to_integer<signed char>(CUSIM_BBITS(h), CUSIM_BF(rz));
}
inline unsigned char __bfloat162uchar_rz(const __nv_bfloat16 h) {
  return ::cusim::fp16::to_integer<unsigned char>(CUSIM_BBITS(h), CUSIM_BF(rz));
}

inline __nv_bfloat16::__nv_bfloat16(const float f) : __x(CUSIM_BBITS(__float2bfloat16_rn(f))) {}
inline __nv_bfloat16::__nv_bfloat16(const double f) : __x(CUSIM_BBITS(__double2bfloat16(f))) {}
inline __nv_bfloat16::__nv_bfloat16(const __half f)
    : __x(CUSIM_BBITS(__float2bfloat16_rn(__half2float(f)))) {}
inline __nv_bfloat16::__nv_bfloat16(const short v) : __x(CUSIM_BBITS(__short2bfloat16_rn(v))) {}
inline __nv_bfloat16::__nv_bfloat16(const unsigned short v)
    : __x(CUSIM_BBITS(__ushort2bfloat16_rn(v))) {}
inline __nv_bfloat16::__nv_bfloat16(const int v) : __x(CUSIM_BBITS(__int2bfloat16_rn(v))) {}
inline __nv_bfloat16::__nv_bfloat16(const unsigned int v)
    : __x(CUSIM_BBITS(__uint2bfloat16_rn(v))) {}
inline __nv_bfloat16::__nv_bfloat16(const long v) : __x(CUSIM_BBITS(__ll2bfloat16_rn(v))) {}
inline __nv_bfloat16::__nv_bfloat16(const unsigned long v)
    : __x(CUSIM_BBITS(__ull2bfloat16_rn(v))) {}
inline __nv_bfloat16::__nv_bfloat16(const long long v) : __x(CUSIM_BBITS(__ll2bfloat16_rn(v))) {}
inline __nv_bfloat16::__nv_bfloat16(const unsigned long long v)
    : __x(CUSIM_BBITS(__ull2bfloat16_rn(v))) {}
inline __half::__half(const __nv_bfloat16 f)
    : __x(__half_raw(__float2half_rn(__bfloat162float(f))).x) {}
inline __nv_bfloat16::operator float() const {
  return __bfloat162float(*this);
}
#define CUSIM_BF16_TO(T)                                                                           \
  inline __nv_bfloat16::operator T() const {                                                       \
    return ::cusim::fp16::to_integer<T>(__x, CUSIM_BF(rz));                                        \
  }
CUSIM_BF16_TO(signed char)
CUSIM_BF16_TO(unsigned char)
CUSIM_BF16_TO(char)
CUSIM_BF16_TO(short)
CUSIM_BF16_TO(unsigned short)
CUSIM_BF16_TO(int)
CUSIM_BF16_TO(unsigned int)
CUSIM_BF16_TO(long)
CUSIM_BF16_TO(unsigned long)
CUSIM_BF16_TO(long long)
CUSIM_BF16_TO(unsigned long long)
#undef CUSIM_BF16_TO

#define CUSIM_H __nv_bfloat16
#define CUSIM_H2 __nv_bfloat162
#define CUSIM_FMT bf16_format
#include "cusim_fp16_ops.h"
#undef CUSIM_H
#undef CUSIM_H2
#undef CUSIM_FMT

#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)

#undef CUSIM_BF16
#undef CUSIM_BBITS
#undef CUSIM_BF
#endif
