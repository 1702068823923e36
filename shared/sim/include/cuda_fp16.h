/* cuda_fp16.h for CPU simulator builds (shared/sim): the half-precision types __half and
 * __half2 (half, half2), their conversions, arithmetic, comparisons, math functions and
 * atomicAdd, computed in software with a GPU's rounding (see cusim_fp16_core.h). Warp shuffles
 * and __ldg of a __half or __half2 are the simulator's generic ones (cusim_device.h).
 * A name this header lacks stops the build as an undeclared name. */
#ifndef __CUDA_FP16_H__
#define __CUDA_FP16_H__
#define __CUDA_FP16_HPP__
#define __CUDA_FP16_TYPES_EXIST__
#pragma GCC system_header

#include "cusim_fp16_core.h"
#include "vector_types.h"

struct alignas(2) __half_raw {
  unsigned short x;
};
struct alignas(4) __half2_raw {
  unsigned short x;
  unsigned short y;
};

struct __half;
struct __nv_bfloat16;
__half __float2half(const float a);
__half __double2half(const double a);
float __half2float(const __half a);
__half __int2half_rn(const int i);
int __half2int_rz(const __half h);

struct alignas(2) __half {
protected:
  unsigned short __x;

public:
  __half() = default;
  constexpr __half(const __half_raw &hr) : __x(hr.x) {}
  __half &operator=(const __half_raw &hr) {
    __x = hr.x;
    return *this;
  }
  volatile __half &operator=(const __half_raw &hr) volatile {
    __x = hr.x;
    return *this;
  }
  operator __half_raw() const { return __half_raw{__x}; }
  operator __half_raw() const volatile { return __half_raw{__x}; }
  /* float and double: rounded to nearest even; integers likewise (their _rn conversions). */
  __half(const float f);
  __half(const double f);
  explicit __half(const __nv_bfloat16 f); /* defined in cuda_bf16.h */
  __half(const short v);
  __half(const unsigned short v);
  __half(const int v);
  __half(const unsigned int v);
  __half(const long v);
  __half(const unsigned long v);
  __half(const long long v);
  __half(const unsigned long long v);
  __half &operator=(const float f) { return *this = __half(f); }
  __half &operator=(const double f) { return *this = __half(f); }
  __half &operator=(const short v) { return *this = __half(v); }
  __half &operator=(const unsigned short v) { return *this = __half(v); }
  __half &operator=(const int v) { return *this = __half(v); }
  __half &operator=(const unsigned int v) { return *this = __half(v); }
  __half &operator=(const long long v) { return *this = __half(v); }
  __half &operator=(const unsigned long long v) { return *this = __half(v); }
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

struct alignas(4) __half2 {
  __half x;
  __half y;
  __half2() = default;
  constexpr __half2(const __half &a, const __half &b) : x(a), y(b) {}
  __half2(const __half2_raw &r) : x(__half_raw{r.x}), y(__half_raw{r.y}) {}
  __half2 &operator=(const __half2_raw &r) { return *this = __half2(r); }
  operator __half2_raw() const { return __half2_raw{__half_raw(x).x, __half_raw(y).x}; }
};

typedef __half half;
typedef __half2 half2;
typedef __half nv_half;
typedef __half2 nv_half2;

/* Conversions ---------------------------------------------------------------------------------*/
#define CUSIM_HALF(b) __half(__half_raw{(unsigned short)(b)})
#define CUSIM_HBITS(h) (__half_raw(h).x)
inline __half __float2half_rn(const float a) {
  return CUSIM_HALF(::cusim::fp16::round_bits(a, ::cusim::fp16::half_format));
}
inline __half __float2half(const float a) {
  return __float2half_rn(a);
}
inline __half __float2half_rz(const float a) {
  return CUSIM_HALF(::cusim::fp16::round_bits(a, ::cusim::fp16::half_format, ::cusim::fp16::rz));
}
inline __half __float2half_rd(const float a) {
  return CUSIM_HALF(::cusim::fp16::round_bits(a, ::cusim::fp16::half_format, ::cusim::fp16::rd));
}
inline __half __float2half_ru(const float a) {
  return CUSIM_HALF(::cusim::fp16::round_bits(a, ::cusim::fp16::half_format, ::cusim::fp16::ru));
}
/* One rounding from double (cvt.rn.f16.f64), not two through float. */
inline __half __double2half(const double a) {
  return CUSIM_HALF(::cusim::fp16::round_bits(a, ::cusim::fp16::half_format));
}
inline float __half2float(const __half a) {
  return ::cusim::fp16::to_float(CUSIM_HBITS(a), ::cusim::fp16::half_format);
}
inline __half2 __float2half2_rn(const float a) {
  return __half2(__float2half_rn(a), __float2half_rn(a));
}
inline __half2 __floats2half2_rn(const float a, const float b) {
  return __half2(__float2half_rn(a), __float2half_rn(b));
}
inline __half2 __float22half2_rn(const float2 a) {
  return __half2(__float2half_rn(a.x), __float2half_rn(a.y));
}
inline float2 __half22float2(const __half2 a) {
  float2 r;
  r.x = __half2float(a.x);
  r.y = __half2float(a.y);
  return r;
}
inline __half2 make_half2(const __half x, const __half y) {
  return __half2(x, y);
}
inline __half __low2half(const __half2 a) {
  return a.x;
}
inline __half __high2half(const __half2 a) {
  return a.y;
}
inline __half2 __halves2half2(const __half a, const __half b) {
  return __half2(a, b);
}
inline __half2 __half2half2(const __half a) {
  return __half2(a, a);
}
inline __half2 __lows2half2(const __half2 a, const __half2 b) {
  return __half2(a.x, b.x);
}
inline __half2 __highs2half2(const __half2 a, const __half2 b) {
  return __half2(a.y, b.y);
}
inline __half2 __low2half2(const __half2 a) {
  return __half2(a.x, a.x);
}
inline __half2 __high2half2(const __half2 a) {
  return __half2(a.y, a.y);
}
inline short __half_as_short(const __half h) {
  return (short)CUSIM_HBITS(h);
}
inline unsigned short __half_as_ushort(const __half h) {
  return CUSIM_HBITS(h);
}
inline __half __short_as_half(const short i) {
  return CUSIM_HALF(i);
}
inline __half __ushort_as_half(const unsigned short i) {
  return CUSIM_HALF(i);
}

/* Integers: cvt.{rni,rzi,rmi,rpi} from half (NaN 0, saturating), cvt.{rn,rz,rm,rp} to half. */
#define CUSIM_HALF_INT(suffix, T)                                                                  \
  inline T __half2##suffix##_rn(const __half h) {                                                  \
    return ::cusim::fp16::to_integer<T>(CUSIM_HBITS(h), ::cusim::fp16::half_format,                \
                                        ::cusim::fp16::rn);                                        \
  }                                                                                                \
  inline T __half2##suffix##_rz(const __half h) {                                                  \
    return ::cusim::fp16::to_integer<T>(CUSIM_HBITS(h), ::cusim::fp16::half_format,                \
                                        ::cusim::fp16::rz);                                        \
  }                                                                                                \
  inline T __half2##suffix##_rd(const __half h) {                                                  \
    return ::cusim::fp16::to_integer<T>(CUSIM_HBITS(h), ::cusim::fp16::half_format,                \
                                        ::cusim::fp16::rd);                                        \
  }                                                                                                \
  inline T __half2##suffix##_ru(const __half h) {                                                  \
    return ::cusim::fp16::to_integer<T>(CUSIM_HBITS(h), ::cusim::fp16::half_format,                \
                                        ::cusim::fp16::ru);                                        \
  }                                                                                                \
  inline __half __##suffix##2half_rn(const T i) {                                                  \
    return CUSIM_HALF(                                                                             \
        ::cusim::fp16::round_bits((double)i, ::cusim::fp16::half_format, ::cusim::fp16::rn));      \
  }                                                                                                \
  inline __half __##suffix##2half_rz(const T i) {                                                  \
    return CUSIM_HALF(                                                                             \
        ::cusim::fp16::round_bits((double)i, ::cusim::fp16::half_format, ::cusim::fp16::rz));      \
  }                                                                                                \
  inline __half __##suffix##2half_rd(const T i) {                                                  \
    return CUSIM_HALF(                                                                             \
        ::cusim::fp16::round_bits((double)i, ::cusim::fp16::half_format, ::cusim::fp16::rd));      \
  }                                                                                                \
  inline __half __##suffix##2half_ru(const T i) {                                                  \
    return CUSIM_HALF(                                                                             \
        ::cusim::fp16::round_bits((double)i, ::cusim::fp16::half_format, ::cusim::fp16::ru));      \
  }
CUSIM_HALF_INT(int, int)
CUSIM_HALF_INT(uint, unsigned int)
CUSIM_HALF_INT(short, short)
CUSIM_HALF_INT(ushort, unsigned short)
CUSIM_HALF_INT(ll, long long)
CUSIM_HALF_INT(ull, unsigned long long)
#undef CUSIM_HALF_INT
inline signed char __half2char_rz(const __half h) {
  return ::cusim::fp16::to_integer<signed char>(CUSIM_HBITS(h), ::cusim::fp16::half_format,
                                                ::cusim::fp16::rz);
}
inline unsigned char __half2uchar_rz(const __half h) {
  return ::cusim::fp16::to_integer<unsigned char>(CUSIM_HBITS(h), ::cusim::fp16::half_format,
                                                  ::cusim::fp16::rz);
}

inline __half::__half(const float f) : __x(CUSIM_HBITS(__float2half_rn(f))) {}
inline __half::__half(const double f) : __x(CUSIM_HBITS(__double2half(f))) {}
inline __half::__half(const short v) : __x(CUSIM_HBITS(__short2half_rn(v))) {}
inline __half::__half(const unsigned short v) : __x(CUSIM_HBITS(__ushort2half_rn(v))) {}
inline __half::__half(const int v) : __x(CUSIM_HBITS(__int2half_rn(v))) {}
inline __half::__half(const unsigned int v) : __x(CUSIM_HBITS(__uint2half_rn(v))) {}
inline __half::__half(const long v) : __x(CUSIM_HBITS(__ll2half_rn(v))) {}
inline __half::__half(const unsigned long v) : __x(CUSIM_HBITS(__ull2half_rn(v))) {}
inline __half::__half(const long long v) : __x(CUSIM_HBITS(__ll2half_rn(v))) {}
inline __half::__half(const unsigned long long v) : __x(CUSIM_HBITS(__ull2half_rn(v))) {}
inline __half::operator float() const {
  return __half2float(*this);
}
#define CUSIM_HALF_TO(T)                                                                           \
  inline __half::operator T() const {                                                              \
    return ::cusim::fp16::to_integer<T>(__x, ::cusim::fp16::half_format, ::cusim::fp16::rz);       \
  }
CUSIM_HALF_TO(signed char)
CUSIM_HALF_TO(unsigned char)
CUSIM_HALF_TO(char)
CUSIM_HALF_TO(short)
CUSIM_HALF_TO(unsigned short)
CUSIM_HALF_TO(int)
CUSIM_HALF_TO(unsigned int)
CUSIM_HALF_TO(long)
CUSIM_HALF_TO(unsigned long)
CUSIM_HALF_TO(long long)
CUSIM_HALF_TO(unsigned long long)
#undef CUSIM_HALF_TO

/* The same-named operations of half and bfloat16 (cusim_fp16_ops.h). */
#define CUSIM_H __half
#define CUSIM_H2 __half2
#define CUSIM_FMT half_format
#include "cusim_fp16_ops.h"
#undef CUSIM_H
#undef CUSIM_H2
#undef CUSIM_FMT

#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)

#undef CUSIM_HALF
#undef CUSIM_HBITS
#endif
