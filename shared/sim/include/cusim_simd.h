/* CUDA's SIMD intrinsics (CUDA Math API, "SIMD Intrinsics"), for CPU simulator builds.
 *
 * Included by cusim_math.h. Every function nvcc 13.0 declares in that group
 * (crt/device_functions.h): the 84 video-style functions on two 16-bit or four 8-bit lanes of an
 * unsigned int (__vadd2 ... __vsubus4) and the 34 sm_90-era ones (__vimax3_*, __viaddmax_*,
 * __vibmax_*, ...). Each lane is computed on its own, so no carry crosses lanes. Where the header's
 * words leave a detail open, the rule is the one of the PTX nvcc 13 emits for it
 * (docs/architecture.md, "SIMD intrinsics"):
 * - __vset* give 1 in every lane where the comparison holds (0x00010001 or 0x01010101 when all
 *   do), not a single 1 as the header's prose says; __vcmp* give an all-ones lane (0xffff, 0xff);
 * - __vavgs* round half away from zero, __vavgu* round half up, __vhaddu* truncate;
 * - __vabs* and __vneg* wrap (-0x8000 stays 0x8000), their ss forms saturate to 0x7fff/0x7f;
 * - __vsads*, __vsadu* return the plain sum of the lanes' absolute differences;
 * - the adds of __viaddmax/__viaddmin wrap; the _relu forms clamp the result below at 0;
 * - __vibmax sets its predicate to a >= b, __vibmin to a <= b (per 16-bit lane for the x2 forms:
 *   pred_hi for the upper lane, pred_lo for the lower). */
#ifndef CUSIM_SIMD_H
#define CUSIM_SIMD_H

#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
#define CUSIM_SIMD_FN inline
#else
#define CUSIM_SIMD_FN static inline
#endif

enum cusim_simd_op {
  CUSIM_V_ABS,
  CUSIM_V_ABSSS,
  CUSIM_V_ADD,
  CUSIM_V_ADDSS,
  CUSIM_V_ADDUS,
  CUSIM_V_AVGS,
  CUSIM_V_AVGU,
  CUSIM_V_HADDU,
  CUSIM_V_ABSDIFFS,
  CUSIM_V_ABSDIFFU,
  CUSIM_V_MAXS,
  CUSIM_V_MAXU,
  CUSIM_V_MINS,
  CUSIM_V_MINU,
  CUSIM_V_NEG,
  CUSIM_V_NEGSS,
  CUSIM_V_SUB,
  CUSIM_V_SUBSS,
  CUSIM_V_SUBUS,
  CUSIM_V_EQ,
  CUSIM_V_NE,
  CUSIM_V_GES,
  CUSIM_V_GEU,
  CUSIM_V_GTS,
  CUSIM_V_GTU,
  CUSIM_V_LES,
  CUSIM_V_LEU,
  CUSIM_V_LTS,
  CUSIM_V_LTU
};

/* One lane of `bits` bits (8 or 16): a and b as unsigned (ua, ub) and signed (sa, sb) values; the
 * result's low `bits` bits are kept. Comparisons give 1 or 0. */
CUSIM_SIMD_FN long long cusim_simd_lane(int op, long long ua, long long ub, long long sa,
                                        long long sb, int bits) {
  const long long smax = (1LL << (bits - 1)) - 1, smin = -(1LL << (bits - 1));
  const long long umax = (1LL << bits) - 1;
  long long r;
  switch (op) {
  case CUSIM_V_ABS:
    return sa < 0 ? -sa : sa;
  case CUSIM_V_ABSSS:
    r = sa < 0 ? -sa : sa;
    return r > smax ? smax : r;
  case CUSIM_V_ADD:
    return ua + ub;
  case CUSIM_V_ADDSS:
    r = sa + sb;
    return r > smax ? smax : (r < smin ? smin : r);
  case CUSIM_V_ADDUS:
    r = ua + ub;
    return r > umax ? umax : r;
  case CUSIM_V_AVGS:
    r = sa + sb;
    return r >= 0 ? (r + 1) / 2 : -((1 - r) / 2);
  case CUSIM_V_AVGU:
    return (ua + ub + 1) / 2;
  case CUSIM_V_HADDU:
    return (ua + ub) / 2;
  case CUSIM_V_ABSDIFFS:
    return sa > sb ? sa - sb : sb - sa;
  case CUSIM_V_ABSDIFFU:
    return ua > ub ? ua - ub : ub - ua;
  case CUSIM_V_MAXS:
    return sa > sb ? sa : sb;
  case CUSIM_V_MAXU:
    return ua > ub ? ua : ub;
  case CUSIM_V_MINS:
    return sa < sb ? sa : sb;
  case CUSIM_V_MINU:
    return ua < ub ? ua : ub;
  case CUSIM_V_NEG:
    return -sa;
  case CUSIM_V_NEGSS:
    return -sa > smax ? smax : -sa;
  case CUSIM_V_SUB:
    return ua - ub;
  case CUSIM_V_SUBSS:
    r = sa - sb;
    return r > smax ? smax : (r < smin ? smin : r);
  case CUSIM_V_SUBUS:
    return ua > ub ? ua - ub : 0;
  case CUSIM_V_EQ:
    return ua == ub;
  case CUSIM_V_NE:
    return ua != ub;
  case CUSIM_V_GES:
    return sa >= sb;
  case CUSIM_V_GEU:
    return ua >= ub;
  case CUSIM_V_GTS:
    return sa > sb;
  case CUSIM_V_GTU:
    return ua > ub;
  case CUSIM_V_LES:
    return sa <= sb;
  case CUSIM_V_LEU:
    return ua <= ub;
  case CUSIM_V_LTS:
    return sa < sb;
  default:
    return ua < ub; /* CUSIM_V_LTU */
  }
}

/* Applies op to each lane of a and b. scale multiplies each lane's result (an all-ones lane for
 * __vcmp*: scale = lane mask); sum != 0 adds the lanes' results instead of packing them. */
CUSIM_SIMD_FN unsigned int cusim_simd(int op, unsigned int a, unsigned int b, int bits,
                                      long long scale, int sum) {
  const unsigned int mask = bits == 8 ? 0xffu : 0xffffu;
  unsigned int packed = 0, total = 0;
  for (int shift = 0; shift < 32; shift += bits) {
    const long long ua = (a >> shift) & mask, ub = (b >> shift) & mask;
    const long long half = 1LL << (bits - 1);
    const long long sa = ua >= half ? ua - 2 * half : ua, sb = ub >= half ? ub - 2 * half : ub;
    const long long r = cusim_simd_lane(op, ua, ub, sa, sb, bits) * scale;
    total += (unsigned int)r;
    packed |= ((unsigned int)(unsigned long long)r & mask) << shift;
  }
  return sum ? total : packed;
}

#define CUSIM_SIMD_UNARY(name, op, bits)                                                           \
  CUSIM_SIMD_FN unsigned int name(unsigned int a) {                                                \
    return cusim_simd(op, a, 0u, bits, 1, 0);                                                      \
  }
#define CUSIM_SIMD_BINARY(name, op, bits)                                                          \
  CUSIM_SIMD_FN unsigned int name(unsigned int a, unsigned int b) {                                \
    return cusim_simd(op, a, b, bits, 1, 0);                                                       \
  }
#define CUSIM_SIMD_CMP(name, op, bits)                                                             \
  CUSIM_SIMD_FN unsigned int name(unsigned int a, unsigned int b) {                                \
    return cusim_simd(op, a, b, bits, bits == 8 ? 0xff : 0xffff, 0);                               \
  }
#define CUSIM_SIMD_SAD(name, op, bits)                                                             \
  CUSIM_SIMD_FN unsigned int name(unsigned int a, unsigned int b) {                                \
    return cusim_simd(op, a, b, bits, 1, 1);                                                       \
  }
#define CUSIM_SIMD_BOTH(macro, stem, op) macro(stem##2, op, 16) macro(stem##4, op, 8)

CUSIM_SIMD_BOTH(CUSIM_SIMD_UNARY, __vabs, CUSIM_V_ABS)
CUSIM_SIMD_BOTH(CUSIM_SIMD_UNARY, __vabsss, CUSIM_V_ABSSS)
CUSIM_SIMD_BOTH(CUSIM_SIMD_UNARY, __vneg, CUSIM_V_NEG)
CUSIM_SIMD_BOTH(CUSIM_SIMD_UNARY, __vnegss, CUSIM_V_NEGSS)
CUSIM_SIMD_BOTH(CUSIM_SIMD_BINARY, __vadd, CUSIM_V_ADD)
CUSIM_SIMD_BOTH(CUSIM_SIMD_BINARY, __vaddss, CUSIM_V_ADDSS)
CUSIM_SIMD_BOTH(CUSIM_SIMD_BINARY, __vaddus, CUSIM_V_ADDUS)
CUSIM_SIMD_BOTH(CUSIM_SIMD_BINARY, __vsub, CUSIM_V_SUB)
CUSIM_SIMD_BOTH(CUSIM_SIMD_BINARY, __vsubss, CUSIM_V_SUBSS)
CUSIM_SIMD_BOTH(CUSIM_SIMD_BINARY, __vsubus, CUSIM_V_SUBUS)
CUSIM_SIMD_BOTH(CUSIM_SIMD_BINARY, __vavgs, CUSIM_V_AVGS)
CUSIM_SIMD_BOTH(CUSIM_SIMD_BINARY, __vavgu, CUSIM_V_AVGU)
CUSIM_SIMD_BOTH(CUSIM_SIMD_BINARY, __vhaddu, CUSIM_V_HADDU)
CUSIM_SIMD_BOTH(CUSIM_SIMD_BINARY, __vabsdiffs, CUSIM_V_ABSDIFFS)
CUSIM_SIMD_BOTH(CUSIM_SIMD_BINARY, __vabsdiffu, CUSIM_V_ABSDIFFU)
CUSIM_SIMD_BOTH(CUSIM_SIMD_BINARY, __vmaxs, CUSIM_V_MAXS)
CUSIM_SIMD_BOTH(CUSIM_SIMD_BINARY, __vmaxu, CUSIM_V_MAXU)
CUSIM_SIMD_BOTH(CUSIM_SIMD_BINARY, __vmins, CUSIM_V_MINS)
CUSIM_SIMD_BOTH(CUSIM_SIMD_BINARY, __vminu, CUSIM_V_MINU)
CUSIM_SIMD_BOTH(CUSIM_SIMD_SAD, __vsads, CUSIM_V_ABSDIFFS)
CUSIM_SIMD_BOTH(CUSIM_SIMD_SAD, __vsadu, CUSIM_V_ABSDIFFU)
CUSIM_SIMD_BOTH(CUSIM_SIMD_CMP, __vcmpeq, CUSIM_V_EQ)
CUSIM_SIMD_BOTH(CUSIM_SIMD_CMP, __vcmpne, CUSIM_V_NE)
CUSIM_SIMD_BOTH(CUSIM_SIMD_CMP, __vcmpges, CUSIM_V_GES)
CUSIM_SIMD_BOTH(CUSIM_SIMD_CMP, __vcmpgeu, CUSIM_V_GEU)
CUSIM_SIMD_BOTH(CUSIM_SIMD_CMP, __vcmpgts, CUSIM_V_GTS)
CUSIM_SIMD_BOTH(CUSIM_SIMD_CMP, __vcmpgtu, CUSIM_V_GTU)
CUSIM_SIMD_BOTH(CUSIM_SIMD_CMP, __vcmples, CUSIM_V_LES)
CUSIM_SIMD_BOTH(CUSIM_SIMD_CMP, __vcmpleu, CUSIM_V_LEU)
CUSIM_SIMD_BOTH(CUSIM_SIMD_CMP, __vcmplts, CUSIM_V_LTS)
CUSIM_SIMD_BOTH(CUSIM_SIMD_CMP, __vcmpltu, CUSIM_V_LTU)
CUSIM_SIMD_BOTH(CUSIM_SIMD_BINARY, __vseteq, CUSIM_V_EQ)
CUSIM_SIMD_BOTH(CUSIM_SIMD_BINARY, __vsetne, CUSIM_V_NE)
CUSIM_SIMD_BOTH(CUSIM_SIMD_BINARY, __vsetges, CUSIM_V_GES)
CUSIM_SIMD_BOTH(CUSIM_SIMD_BINARY, __vsetgeu, CUSIM_V_GEU)
CUSIM_SIMD_BOTH(CUSIM_SIMD_BINARY, __vsetgts, CUSIM_V_GTS)
CUSIM_SIMD_BOTH(CUSIM_SIMD_BINARY, __vsetgtu, CUSIM_V_GTU)
CUSIM_SIMD_BOTH(CUSIM_SIMD_BINARY, __vsetles, CUSIM_V_LES)
CUSIM_SIMD_BOTH(CUSIM_SIMD_BINARY, __vsetleu, CUSIM_V_LEU)
CUSIM_SIMD_BOTH(CUSIM_SIMD_BINARY, __vsetlts, CUSIM_V_LTS)
CUSIM_SIMD_BOTH(CUSIM_SIMD_BINARY, __vsetltu, CUSIM_V_LTU)

/* sm_90-era functions: 32-bit ints, or two 16-bit lanes (s16x2, u16x2). */
CUSIM_SIMD_FN int cusim_simd_smax(int a, int b) {
  return a > b ? a : b;
}
CUSIM_SIMD_FN int cusim_simd_smin(int a, int b) {
  return a < b ? a : b;
}
CUSIM_SIMD_FN unsigned int cusim_simd_umax(unsigned int a, unsigned int b) {
  return a > b ? a : b;
}
CUSIM_SIMD_FN unsigned int cusim_simd_umin(unsigned int a, unsigned int b) {
  return a < b ? a : b;
}
CUSIM_SIMD_FN int cusim_simd_wrap_add(int a, int b) {
  return (int)((unsigned int)a + (unsigned int)b);
}
/* Lane-wise max(x, 0) of two signed 16-bit lanes. */
CUSIM_SIMD_FN unsigned int cusim_simd_relu2(unsigned int x) {
  return __vmaxs2(x, 0u);
}

CUSIM_SIMD_FN int __vimax_s32_relu(const int a, const int b) {
  return cusim_simd_smax(cusim_simd_smax(a, b), 0);
}
CUSIM_SIMD_FN unsigned int __vimax_s16x2_relu(const unsigned int a, const unsigned int b) {
  return cusim_simd_relu2(__vmaxs2(a, b));
}
CUSIM_SIMD_FN int __vimin_s32_relu(const int a, const int b) {
  return cusim_simd_smax(cusim_simd_smin(a, b), 0);
}
CUSIM_SIMD_FN unsigned int __vimin_s16x2_relu(const unsigned int a, const unsigned int b) {
  return cusim_simd_relu2(__vmins2(a, b));
}
CUSIM_SIMD_FN int __vimax3_s32(const int a, const int b, const int c) {
  return cusim_simd_smax(cusim_simd_smax(a, b), c);
}
CUSIM_SIMD_FN unsigned int __vimax3_s16x2(const unsigned int a, const unsigned int b,
                                          const unsigned int c) {
  return __vmaxs2(__vmaxs2(a, b), c);
}
CUSIM_SIMD_FN unsigned int __vimax3_u32(const unsigned int a, const unsigned int b,
                                        const unsigned int c) {
  return cusim_simd_umax(cusim_simd_umax(a, b), c);
}
CUSIM_SIMD_FN unsigned int __vimax3_u16x2(const unsigned int a, const unsigned int b,
                                          const unsigned int c) {
  return __vmaxu2(__vmaxu2(a, b), c);
}
CUSIM_SIMD_FN int __vimin3_s32(const int a, const int b, const int c) {
  return cusim_simd_smin(cusim_simd_smin(a, b), c);
}
CUSIM_SIMD_FN unsigned int __vimin3_s16x2(const unsigned int a, const unsigned int b,
                                          const unsigned int c) {
  return __vmins2(__vmins2(a, b), c);
}
CUSIM_SIMD_FN unsigned int __vimin3_u32(const unsigned int a, const unsigned int b,
                                        const unsigned int c) {
  return cusim_simd_umin(cusim_simd_umin(a, b), c);
}
CUSIM_SIMD_FN unsigned int __vimin3_u16x2(const unsigned int a, const unsigned int b,
                                          const unsigned int c) {
  return __vminu2(__vminu2(a, b), c);
}
CUSIM_SIMD_FN int __vimax3_s32_relu(const int a, const int b, const int c) {
  return cusim_simd_smax(__vimax3_s32(a, b, c), 0);
}
CUSIM_SIMD_FN unsigned int __vimax3_s16x2_relu(const unsigned int a, const unsigned int b,
                                               const unsigned int c) {
  return cusim_simd_relu2(__vimax3_s16x2(a, b, c));
}
CUSIM_SIMD_FN int __vimin3_s32_relu(const int a, const int b, const int c) {
  return cusim_simd_smax(__vimin3_s32(a, b, c), 0);
}
CUSIM_SIMD_FN unsigned int __vimin3_s16x2_relu(const unsigned int a, const unsigned int b,
                                               const unsigned int c) {
  return cusim_simd_relu2(__vimin3_s16x2(a, b, c));
}
CUSIM_SIMD_FN int __viaddmax_s32(const int a, const int b, const int c) {
  return cusim_simd_smax(cusim_simd_wrap_add(a, b), c);
}
CUSIM_SIMD_FN unsigned int __viaddmax_s16x2(const unsigned int a, const unsigned int b,
                                            const unsigned int c) {
  return __vmaxs2(__vadd2(a, b), c);
}
CUSIM_SIMD_FN unsigned int __viaddmax_u32(const unsigned int a, const unsigned int b,
                                          const unsigned int c) {
  return cusim_simd_umax(a + b, c);
}
CUSIM_SIMD_FN unsigned int __viaddmax_u16x2(const unsigned int a, const unsigned int b,
                                            const unsigned int c) {
  return __vmaxu2(__vadd2(a, b), c);
}
CUSIM_SIMD_FN int __viaddmin_s32(const int a, const int b, const int c) {
  return cusim_simd_smin(cusim_simd_wrap_add(a, b), c);
}
CUSIM_SIMD_FN unsigned int __viaddmin_s16x2(const unsigned int a, const unsigned int b,
                                            const unsigned int c) {
  return __vmins2(__vadd2(a, b), c);
}
CUSIM_SIMD_FN unsigned int __viaddmin_u32(const unsigned int a, const unsigned int b,
                                          const unsigned int c) {
  return cusim_simd_umin(a + b, c);
}
CUSIM_SIMD_FN unsigned int __viaddmin_u16x2(const unsigned int a, const unsigned int b,
                                            const unsigned int c) {
  return __vminu2(__vadd2(a, b), c);
}
CUSIM_SIMD_FN int __viaddmax_s32_relu(const int a, const int b, const int c) {
  return cusim_simd_smax(__viaddmax_s32(a, b, c), 0);
}
CUSIM_SIMD_FN unsigned int __viaddmax_s16x2_relu(const unsigned int a, const unsigned int b,
                                                 const unsigned int c) {
  return cusim_simd_relu2(__viaddmax_s16x2(a, b, c));
}
CUSIM_SIMD_FN int __viaddmin_s32_relu(const int a, const int b, const int c) {
  return cusim_simd_smax(__viaddmin_s32(a, b, c), 0);
}
CUSIM_SIMD_FN unsigned int __viaddmin_s16x2_relu(const unsigned int a, const unsigned int b,
                                                 const unsigned int c) {
  return cusim_simd_relu2(__viaddmin_s16x2(a, b, c));
}
CUSIM_SIMD_FN int __vibmax_s32(const int a, const int b, bool *const pred) {
  *pred = a >= b;
  return cusim_simd_smax(a, b);
}
CUSIM_SIMD_FN unsigned int __vibmax_u32(const unsigned int a, const unsigned int b,
                                        bool *const pred) {
  *pred = a >= b;
  return cusim_simd_umax(a, b);
}
CUSIM_SIMD_FN int __vibmin_s32(const int a, const int b, bool *const pred) {
  *pred = a <= b;
  return cusim_simd_smin(a, b);
}
CUSIM_SIMD_FN unsigned int __vibmin_u32(const unsigned int a, const unsigned int b,
                                        bool *const pred) {
  *pred = a <= b;
  return cusim_simd_umin(a, b);
}
CUSIM_SIMD_FN unsigned int __vibmax_s16x2(const unsigned int a, const unsigned int b,
                                          bool *const pred_hi, bool *const pred_lo) {
  const unsigned int ge = __vsetges2(a, b);
  *pred_hi = (ge >> 16) != 0;
  *pred_lo = (ge & 0xffffu) != 0;
  return __vmaxs2(a, b);
}
CUSIM_SIMD_FN unsigned int __vibmax_u16x2(const unsigned int a, const unsigned int b,
                                          bool *const pred_hi, bool *const pred_lo) {
  const unsigned int ge = __vsetgeu2(a, b);
  *pred_hi = (ge >> 16) != 0;
  *pred_lo = (ge & 0xffffu) != 0;
  return __vmaxu2(a, b);
}
CUSIM_SIMD_FN unsigned int __vibmin_s16x2(const unsigned int a, const unsigned int b,
                                          bool *const pred_hi, bool *const pred_lo) {
  const unsigned int le = __vsetles2(a, b);
  *pred_hi = (le >> 16) != 0;
  *pred_lo = (le & 0xffffu) != 0;
  return __vmins2(a, b);
}
CUSIM_SIMD_FN unsigned int __vibmin_u16x2(const unsigned int a, const unsigned int b,
                                          bool *const pred_hi, bool *const pred_lo) {
  const unsigned int le = __vsetleu2(a, b);
  *pred_hi = (le >> 16) != 0;
  *pred_lo = (le & 0xffffu) != 0;
  return __vminu2(a, b);
}

#undef CUSIM_SIMD_UNARY
#undef CUSIM_SIMD_BINARY
#undef CUSIM_SIMD_CMP
#undef CUSIM_SIMD_SAD
#undef CUSIM_SIMD_BOTH

#endif /* CUSIM_SIMD_H */
