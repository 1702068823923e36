/* cusim_ptx.h: inline PTX in device code, as a GPU runs it (issue 27). The rewriter
   (rewriter/inline_ptx.c) reads each asm("..." : outputs : inputs) of device code, checks that
   every statement is in the subset the simulator runs, and writes it as a call of run():

       asm("add.u32 %0, %1, %2;" : "=r"(x) : "r"(a), "n"(5));
   becomes
       ::cusim::ptx::run([](auto &cusim_p0, auto &cusim_p1, auto &cusim_p2) {
           using namespace ::cusim::ptx; set(cusim_p0, add(get<u32>(cusim_p1), get<u32>(cusim_p2)));
         }, ::cusim::ptx::out<'r'>(x), ::cusim::ptx::in<'r'>(a),
         ::cusim::ptx::in_n(::std::integral_constant<long long, (5)>{}));

   Each operand is a register of its constraint's type (h: 16 bits, r: 32, l: 64, f: float,
   d: double), filled from the C operand before the statements run and written back after them,
   as nvcc binds them. The C operand must have the size nvcc asks of it (nvcc: "asm operand type
   size(8) does not match type/size implied by constraint 'r'"). The operations below follow the
   PTX ISA's definitions (PTX ISA 9.0), each named by its instruction. */
#ifndef CUSIM_PTX_H
#define CUSIM_PTX_H

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace cusim {
namespace dev {
/* Special registers the runtime knows (scheduler.cpp: special_register). */
enum special_register_kind {
  sreg_smid = 1,
  sreg_nsmid,
  sreg_nwarpid,
  sreg_gridid,
  sreg_globaltimer,
  sreg_dynamic_smem_size
};
uint64_t special_register(int kind);
} // namespace dev

namespace ptx {
using b16 = std::uint16_t;
using u16 = std::uint16_t;
using s16 = std::int16_t;
using b32 = std::uint32_t;
using u32 = std::uint32_t;
using s32 = std::int32_t;
using b64 = std::uint64_t;
using u64 = std::uint64_t;
using s64 = std::int64_t;
using f32 = float;
using f64 = double;
using p1 = bool; /* a .pred register */

/* ---- operands: C values into registers and back -------------------------------------------- */

template <char C> struct reg_of;
template <> struct reg_of<'h'> { using type = u16; };
template <> struct reg_of<'r'> { using type = u32; };
template <> struct reg_of<'l'> { using type = u64; };
template <> struct reg_of<'f'> { using type = f32; };
template <> struct reg_of<'d'> { using type = f64; };

/* What nvcc accepts for a constraint: an integer (or enum) of the register's size for h, r and l
   (and a pointer for l), float for f, double for d. */
template <char C, class T> constexpr bool operand_fits() {
  using V = std::remove_cv_t<std::remove_reference_t<T>>;
  if constexpr (C == 'f')
    return std::is_same<V, float>::value;
  else if constexpr (C == 'd')
    return std::is_same<V, double>::value;
  else
    return sizeof(V) == sizeof(typename reg_of<C>::type) &&
           (std::is_integral<V>::value || std::is_enum<V>::value ||
            (C == 'l' && std::is_pointer<V>::value));
}

template <class R, class V> inline R to_reg(const V &v) {
  R r;
  std::memcpy(&r, &v, sizeof r);
  return r;
}

template <char C, class T> struct output {
  typename reg_of<C>::type reg{};
  T &target;
  void finish() { target = to_reg<std::remove_cv_t<T>>(reg); }
};
template <char C, class T> struct input {
  typename reg_of<C>::type reg;
  void finish() {}
};
struct imm_value {
  unsigned long long v;
};
struct immediate {
  imm_value reg;
  void finish() {}
};

#define CUSIM_PTX_FITS(C, T)                                                                       \
  static_assert(operand_fits<C, T>(), "inline PTX: the C operand's type does not fit the "         \
                                      "constraint (h: 2-byte integer, r: 4-byte integer, l: "      \
                                      "8-byte integer or pointer, f: float, d: double); nvcc "     \
                                      "rejects this too")

/* "=r"(x): written back after the statements; "+r"(x): also read before them. */
template <char C, class T> inline output<C, T> out(T &x) {
  CUSIM_PTX_FITS(C, T);
  return output<C, T>{{}, x};
}
template <char C, class T> inline output<C, T> inout(T &x) {
  CUSIM_PTX_FITS(C, T);
  return output<C, T>{to_reg<typename reg_of<C>::type>(x), x};
}
template <char C, class T> inline input<C, T> in(const T &x) {
  CUSIM_PTX_FITS(C, T);
  return input<C, T>{to_reg<typename reg_of<C>::type>(x)};
}
#undef CUSIM_PTX_FITS
/* "n"(k): an integral constant expression (the template argument makes it one, as nvcc asks). */
template <class K> inline immediate in_n(K) {
  return immediate{{(unsigned long long)K::value}};
}

template <class F, class... Ops> inline void run(F f, Ops &&...ops) {
  f(ops.reg...);
  (ops.finish(), ...);
}

/* A register read as the instruction's type: same size, bits kept (mov.b32 of a float). An
   immediate ("n", or written in the PTX) is converted as the assembler takes it. */
template <class T, class R> inline T get(const R &r) {
  if constexpr (std::is_same<R, imm_value>::value) {
    return static_cast<T>(r.v);
  } else {
    static_assert(sizeof(T) == sizeof(R), "inline PTX: a register of another size");
    return to_reg<T>(r);
  }
}
template <class R, class T> inline void set(R &r, T v) {
  static_assert(sizeof(T) == sizeof(R), "inline PTX: a register of another size");
  r = to_reg<R>(v);
}

/* mov.b64 d, {a, b}: the parts from the low bits up; mov.b64 {a, b}, d: part i of d. */
template <class W, class... E> inline W pack(E... e) {
  W w = 0;
  unsigned shift = 0;
  ((w |= (W)((W)e << shift), shift += 8 * sizeof(E)), ...);
  return w;
}
template <class E, class W> inline E part(W w, unsigned i) {
  return (E)(w >> (8 * sizeof(E) * i));
}

/* ---- integer arithmetic: add, sub, mul, mad, min, max, neg, abs ------------------------------ */

/* Two's complement wrap-around, without C++'s signed overflow. */
template <class T> using uns = std::make_unsigned_t<T>;
template <class T> inline T add(T a, T b) {
  return (T)(uns<T>)((uns<T>)a + (uns<T>)b);
}
template <class T> inline T sub(T a, T b) {
  return (T)(uns<T>)((uns<T>)a - (uns<T>)b);
}
template <class T> inline T neg(T a) {
  return (T)(uns<T>)(0u - (uns<T>)a);
}
template <class T> inline T abs(T a) { /* abs.s32 of INT_MIN is INT_MIN */
  return a < 0 ? neg(a) : a;
}
/* The full product, in twice the width (128 bits for 64-bit operands). */
template <class T> struct wide;
template <class W, class U> struct wide_types {
  using type = W;  /* signed as T */
  using utype = U; /* its unsigned twin (std::make_unsigned knows no __int128 in strict C++17) */
};
template <> struct wide<u16> : wide_types<u32, u32> {};
template <> struct wide<s16> : wide_types<s32, u32> {};
template <> struct wide<u32> : wide_types<u64, u64> {};
template <> struct wide<s32> : wide_types<s64, u64> {};
template <> struct wide<u64> : wide_types<unsigned __int128, unsigned __int128> {};
template <> struct wide<s64> : wide_types<__int128, unsigned __int128> {};
template <class T> inline typename wide<T>::type mul_wide(T a, T b) {
  using W = typename wide<T>::type;
  using U = typename wide<T>::utype;
  return (W)((U)(W)a * (U)(W)b);
}
template <class T> inline T mul_lo(T a, T b) {
  return (T)(uns<T>)mul_wide(a, b);
}
template <class T> inline T mul_hi(T a, T b) {
  return (T)(uns<T>)((typename wide<T>::utype)mul_wide(a, b) >> (8 * sizeof(T)));
}
template <class T> inline T mad_lo(T a, T b, T c) {
  return add(mul_lo(a, b), c);
}
template <class T> inline T mad_hi(T a, T b, T c) {
  return add(mul_hi(a, b), c);
}
template <class T, class W> inline W mad_wide(T a, T b, W c) {
  using U = typename wide<T>::utype;
  return (W)((U)mul_wide(a, b) + (U)c);
}
template <class T> inline T min(T a, T b) {
  return b < a ? b : a;
}
template <class T> inline T max(T a, T b) {
  return a < b ? b : a;
}

/* ---- bits: and, or, xor, not, shl, shr, bfe, bfi, brev, popc, clz, prmt, lop3 -----------------
 */

template <class T> inline T and_(T a, T b) {
  return a & b;
}
template <class T> inline T or_(T a, T b) {
  return a | b;
}
template <class T> inline T xor_(T a, T b) {
  return a ^ b;
}
template <class T> inline T not_(T a) {
  return (T)~a;
}
/* shl, shr.u, shr.b: an amount of the width or more gives 0; shr.s gives the sign. The amount is
   a .u32 operand. */
template <class T> inline T shl(T a, u32 n) {
  return n >= 8 * sizeof(T) ? (T)0 : (T)((uns<T>)a << n);
}
template <class T> inline T shr(T a, u32 n) {
  if (std::is_signed<T>::value) return n >= 8 * sizeof(T) ? (T)(a < 0 ? -1 : 0) : (T)(a >> n);
  return n >= 8 * sizeof(T) ? (T)0 : (T)((uns<T>)a >> n);
}
/* bfe.type d, a, b, c (the PTX ISA's loop, one bit at a time) */
template <class T> inline T bfe(T a, u32 b, u32 c) {
  const unsigned msb = 8 * sizeof(T) - 1, pos = b & 0xff, len = c & 0xff;
  const uns<T> ua = (uns<T>)a;
  unsigned sbit = 0;
  if (std::is_signed<T>::value && len != 0) {
    unsigned at = pos + len - 1 < msb ? pos + len - 1 : msb;
    sbit = (unsigned)(ua >> at) & 1u;
  }
  uns<T> d = 0;
  for (unsigned i = 0; i <= msb; i++) {
    unsigned bit = (i < len && pos + i <= msb) ? (unsigned)(ua >> (pos + i)) & 1u : sbit;
    d |= (uns<T>)bit << i;
  }
  return (T)d;
}
/* bfi.type f, a, b, c, d: a's low bits into b at c, d of them */
template <class T> inline T bfi(T a, T b, u32 c, u32 d) {
  const unsigned msb = 8 * sizeof(T) - 1, pos = c & 0xff, len = d & 0xff;
  uns<T> f = (uns<T>)b;
  for (unsigned i = 0; i < len && pos + i <= msb; i++) {
    uns<T> bit = ((uns<T>)a >> i) & 1u;
    f = (uns<T>)((f & ~((uns<T>)1 << (pos + i))) | (bit << (pos + i)));
  }
  return (T)f;
}
template <class T> inline T brev(T a) {
  uns<T> r = 0, ua = (uns<T>)a;
  for (unsigned i = 0; i < 8 * sizeof(T); i++)
    r |= (uns<T>)((ua >> i) & 1u) << (8 * sizeof(T) - 1 - i);
  return (T)r;
}
template <class T> inline u32 popc(T a) {
  return (u32)__builtin_popcountll((unsigned long long)(uns<T>)a);
}
template <class T> inline u32 clz(T a) { /* clz of 0 is the width */
  const unsigned long long v = (unsigned long long)(uns<T>)a;
  return v == 0 ? (u32)(8 * sizeof(T)) : (u32)(__builtin_clzll(v) - (64 - 8 * sizeof(T)));
}
/* prmt.b32 d, a, b, c (the default mode): byte i of d is byte c[4i+2:4i] of {b, a}, or that
   byte's sign replicated where c[4i+3] is set. */
inline u32 prmt(u32 a, u32 b, u32 c) {
  const u64 source = ((u64)b << 32) | a;
  u32 d = 0;
  for (unsigned i = 0; i < 4; i++) {
    unsigned control = (c >> (4 * i)) & 0xfu;
    u32 byte = (u32)(source >> (8 * (control & 7u))) & 0xffu;
    if (control & 8u) byte = (byte & 0x80u) ? 0xffu : 0u;
    d |= byte << (8 * i);
  }
  return d;
}
/* lop3.b32 d, a, b, c, immLut: each bit of d is bit (a<<2 | b<<1 | c) of immLut (the ISA's
   ta = 0xF0, tb = 0xCC, tc = 0xAA). */
inline u32 lop3(u32 a, u32 b, u32 c, u32 lut) {
  u32 d = 0;
  for (unsigned i = 0; i < 8; i++)
    if ((lut >> i) & 1u) d |= ((i & 4u) ? a : ~a) & ((i & 2u) ? b : ~b) & ((i & 1u) ? c : ~c);
  return d;
}

/* ---- special registers ------------------------------------------------------------------------
 */

/* The simulator's warp layout: lanes are consecutive linear thread indices of the block, 32 a
   warp, as on a GPU. */
inline u32 sreg_laneid() {
  return ::cusim::dev::lane_id();
}
inline u32 sreg_warpid() {
  return ::cusim::detail::cusim_tls_ref().tid / 32u;
}
inline u32 sreg_lanemask_eq() {
  return 1u << sreg_laneid();
}
inline u32 sreg_lanemask_lt() {
  return sreg_lanemask_eq() - 1u;
}
inline u32 sreg_lanemask_le() {
  return sreg_lanemask_lt() | sreg_lanemask_eq();
}
inline u32 sreg_lanemask_ge() {
  return ~sreg_lanemask_lt();
}
inline u32 sreg_lanemask_gt() {
  return ~sreg_lanemask_le();
}
inline u64 sreg_clock64() {
  return (u64)::cusim::dev::clock64();
}
inline u32 sreg_clock() {
  return (u32)sreg_clock64();
}
inline u32 sreg_clock_hi() {
  return (u32)(sreg_clock64() >> 32);
}
inline u64 sreg_globaltimer() {
  return ::cusim::dev::special_register(::cusim::dev::sreg_globaltimer);
}
inline u32 sreg_globaltimer_lo() {
  return (u32)sreg_globaltimer();
}
inline u32 sreg_globaltimer_hi() {
  return (u32)(sreg_globaltimer() >> 32);
}
inline u32 sreg_smid() {
  return (u32)::cusim::dev::special_register(::cusim::dev::sreg_smid);
}
inline u32 sreg_nsmid() {
  return (u32)::cusim::dev::special_register(::cusim::dev::sreg_nsmid);
}
inline u32 sreg_nwarpid() {
  return (u32)::cusim::dev::special_register(::cusim::dev::sreg_nwarpid);
}
inline u64 sreg_gridid() {
  return ::cusim::dev::special_register(::cusim::dev::sreg_gridid);
}
inline u32 sreg_dynamic_smem_size() {
  return (u32)::cusim::dev::special_register(::cusim::dev::sreg_dynamic_smem_size);
}
#define CUSIM_PTX_VECTOR_SREG(NAME, FIELD)                                                         \
  inline u32 sreg_##NAME##_x() {                                                                   \
    return ::cusim::detail::cusim_tls_ref().FIELD.x;                                               \
  }                                                                                                \
  inline u32 sreg_##NAME##_y() {                                                                   \
    return ::cusim::detail::cusim_tls_ref().FIELD.y;                                               \
  }                                                                                                \
  inline u32 sreg_##NAME##_z() {                                                                   \
    return ::cusim::detail::cusim_tls_ref().FIELD.z;                                               \
  }
CUSIM_PTX_VECTOR_SREG(tid, thread_idx)
CUSIM_PTX_VECTOR_SREG(ntid, block_dim)
CUSIM_PTX_VECTOR_SREG(ctaid, block_idx)
CUSIM_PTX_VECTOR_SREG(nctaid, grid_dim)
#undef CUSIM_PTX_VECTOR_SREG

/* ---- fences, sleep, trap ----------------------------------------------------------------------
 */

/* membar and fence: blocks run on several host threads, so a real fence (as __threadfence). */
inline void fence() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
/* nanosleep.u32 t sleeps for a time in [0, 2t] (the ISA): 0 here. */
inline void nanosleep(u32) {}
} // namespace ptx
} // namespace cusim
#endif
