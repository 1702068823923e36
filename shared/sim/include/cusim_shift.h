/* cusim_shift.h: shifts in device code as a GPU computes them (issue 27). C++ leaves a shift by
   the promoted left operand's width or more (or by a negative amount) undefined, and x86 takes
   the amount modulo the width (x << 32 gives x). The PTX nvcc emits for a shift by a run-time
   amount (shl.b32/b64, shr.s32/s64, shr.u32/u64, on the promoted operand: 8- and 16-bit values
   are shifted as 32-bit ones) takes the amount as an unsigned 32-bit value (a 64-bit amount's low
   half) and clamps it to the width: shl and shr.u give 0, shr.s the sign (0 or -1).

   The rewriter turns each shift operator in device code into two of the same precedence, so
   precedence and associativity are those of the original:
       a << b    ->  a << ::cusim::dev::shift_site{__FILE__, __LINE__} << b
       x >>= n   ->  x >>= ::cusim::dev::shift_site{__FILE__, __LINE__} >>= n
   (a << site) is a proxy that holds a; (proxy << b) is the GPU's shift. An operand that is not of
   integral or unscoped enumeration type (a stream, a class with its own operator) gets its own
   operator, unchanged. Where the memory checker is on, the first out-of-range shift of each line
   says once that C++ leaves it undefined (a note, not an error). */
#ifndef CUSIM_SHIFT_H
#define CUSIM_SHIFT_H

#include <cstdint>
#include <type_traits>
#include <utility>

namespace cusim {
namespace dev {
struct shift_site {
  const char *file;
  int line;
};
void note_shift(const shift_site &site, bool left, unsigned amount, unsigned width);

template <class T>
constexpr bool shift_integral =
    std::is_integral<std::remove_cv_t<std::remove_reference_t<T>>>::value ||
    (std::is_enum<std::remove_cv_t<std::remove_reference_t<T>>>::value &&
     std::is_convertible<std::remove_cv_t<std::remove_reference_t<T>>, long long>::value);

/* The GPU's shift of a (promoted) by b. */
template <class A, class B> constexpr auto gpu_shift(A a, B b, bool left, const shift_site &site) {
  using P = decltype(+a); /* the promoted type: the result's type, as in C++ */
  using U = std::make_unsigned_t<P>;
  P v = +a;
  uint32_t amount = (uint32_t)(+b); /* PTX's shift amount: unsigned, 32 bits */
  constexpr unsigned width = 8 * sizeof(P);
  if (__builtin_expect(amount >= width, 0)) {
    note_shift(site, left, amount, width);
    if (left || !std::is_signed<P>::value || v >= 0) return P(0);
    return P(-1);
  }
  return left ? P(U(v) << amount) : P(v >> amount);
}

template <class A, bool Left> struct shift_left_operand {
  A a;
  shift_site site;
};
template <class A, bool Left> struct shift_forward { /* not an integer: its own operator */
  A &&a;
};
template <class B, bool Left> struct shift_amount {
  B b;
  shift_site site;
};

/* a << site, a >> site */
template <class A, std::enable_if_t<shift_integral<A>, int> = 0>
constexpr shift_left_operand<std::remove_cv_t<std::remove_reference_t<A>>, true>
operator<<(A &&a, shift_site s) {
  return {a, s};
}
template <class A, std::enable_if_t<shift_integral<A>, int> = 0>
constexpr shift_left_operand<std::remove_cv_t<std::remove_reference_t<A>>, false>
operator>>(A &&a, shift_site s) {
  return {a, s};
}
template <class A, std::enable_if_t<!shift_integral<A>, int> = 0>
constexpr shift_forward<A, true> operator<<(A &&a, shift_site) {
  return {std::forward<A>(a)};
}
template <class A, std::enable_if_t<!shift_integral<A>, int> = 0>
constexpr shift_forward<A, false> operator>>(A &&a, shift_site) {
  return {std::forward<A>(a)};
}
/* (a << site) << b */
template <class A, class B, std::enable_if_t<shift_integral<B>, int> = 0>
constexpr auto operator<<(shift_left_operand<A, true> l, B &&b) {
  return gpu_shift(l.a, b, true, l.site);
}
template <class A, class B, std::enable_if_t<shift_integral<B>, int> = 0>
constexpr auto operator>>(shift_left_operand<A, false> l, B &&b) {
  return gpu_shift(l.a, b, false, l.site);
}
template <class A, class B, std::enable_if_t<!shift_integral<B>, int> = 0>
constexpr decltype(auto) operator<<(shift_left_operand<A, true> l, B &&b) {
  return l.a << std::forward<B>(b);
}
template <class A, class B, std::enable_if_t<!shift_integral<B>, int> = 0>
constexpr decltype(auto) operator>>(shift_left_operand<A, false> l, B &&b) {
  return l.a >> std::forward<B>(b);
}
template <class A, class B> constexpr decltype(auto) operator<<(shift_forward<A, true> l, B &&b) {
  return std::forward<A>(l.a) << std::forward<B>(b);
}
template <class A, class B> constexpr decltype(auto) operator>>(shift_forward<A, false> l, B &&b) {
  return std::forward<A>(l.a) >> std::forward<B>(b);
}

/* x <<= site <<= n: (site <<= n) holds the amount; x <<= it shifts x as x = x << n does. */
template <class B> constexpr shift_amount<B &&, true> operator<<=(shift_site s, B &&b) {
  return {std::forward<B>(b), s};
}
template <class B> constexpr shift_amount<B &&, false> operator>>=(shift_site s, B &&b) {
  return {std::forward<B>(b), s};
}
template <class X, class B, bool Left,
          std::enable_if_t<shift_integral<X> && shift_integral<B>, int> = 0>
constexpr X &shift_assign(X &x, shift_amount<B, Left> &&n) {
  using T = std::remove_cv_t<X>;
  x = (T)gpu_shift((T)x, n.b, Left, n.site);
  return x;
}
template <class X, class B, std::enable_if_t<std::is_integral<std::remove_cv_t<X>>::value, int> = 0>
constexpr X &operator<<=(X &x, shift_amount<B, true> &&n) {
  return shift_assign(x, std::move(n));
}
template <class X, class B, std::enable_if_t<std::is_integral<std::remove_cv_t<X>>::value, int> = 0>
constexpr X &operator>>=(X &x, shift_amount<B, false> &&n) {
  return shift_assign(x, std::move(n));
}
template <class X, class B,
          std::enable_if_t<!std::is_integral<std::remove_cv_t<X>>::value, int> = 0>
constexpr decltype(auto) operator<<=(X &&x, shift_amount<B, true> &&n) {
  return std::forward<X>(x) <<= std::forward<B>(n.b);
}
template <class X, class B,
          std::enable_if_t<!std::is_integral<std::remove_cv_t<X>>::value, int> = 0>
constexpr decltype(auto) operator>>=(X &&x, shift_amount<B, false> &&n) {
  return std::forward<X>(x) >>= std::forward<B>(n.b);
}
} // namespace dev
} // namespace cusim

#endif

/* Explicit conversions of a floating value to an integer type in device code (issue 27):
   static_cast<T>(x) and (T)(x), with T an integer type, become gpu_cast<T>(site, x). C++ leaves
   a value out of T's range (and NaN) undefined; nvcc emits cvt.rzi.{s,u}32 (for 8- and 16-bit
   T, whose result is then truncated) or cvt.rzi.{s,u}64, which the PTX ISA saturates: NaN gives
   0, a value below the range its least, above it its greatest. Other conversions are static_cast
   (reinterpret_cast from a pointer, as a C cast is). */
#ifndef CUSIM_GPU_CAST_DEFINED
#define CUSIM_GPU_CAST_DEFINED
#include <limits>
namespace cusim {
namespace dev {
void note_conversion(const shift_site &site, double value, unsigned bits, bool is_signed);
template <class T, class F> constexpr T gpu_cast(const shift_site &site, F f) {
  if constexpr (std::is_floating_point<F>::value && std::is_integral<T>::value &&
                !std::is_same<std::remove_cv_t<T>, bool>::value) {
    using S = std::remove_cv_t<T>;
    using W =
        std::conditional_t<(sizeof(S) < 4),
                           std::conditional_t<std::is_signed<S>::value, int32_t, uint32_t>, S>;
    constexpr F lo = (F)std::numeric_limits<W>::min(), hi = (F)std::numeric_limits<W>::max();
    /* in W's range once truncated (lo - 1 and hi + 1 round to lo and hi where not exact) */
    bool in_range = f >= lo ? f < hi + 1 : f > lo - 1; /* NaN: neither */
    if (__builtin_expect(!in_range, 0)) {
      note_conversion(site, (double)f, 8 * sizeof(W), std::is_signed<W>::value);
      if (f != f) return S(0);
      return f < 0 ? S(std::numeric_limits<W>::min()) : S(std::numeric_limits<W>::max());
    }
    return S((W)f);
  } else if constexpr (std::is_pointer<F>::value) {
    (void)site;
    return reinterpret_cast<T>(f);
  } else {
    (void)site;
    return static_cast<T>(f);
  }
}
} // namespace dev
} // namespace cusim
#endif
