// CUDA's SIMD intrinsics (CUDA Math API "SIMD Intrinsics", all 118 nvcc 13.0 declares): every one
// runs on edge inputs (0, -1, 0x80 and 0x8000 lanes, 0x7f, mixed signs, sums that would carry into
// the next lane) and on pseudo-random ones, and is compared with the host's own computation of its
// rule, lane by lane. The rules are those of crt/device_functions.h, and where its words leave a
// detail open, those of the PTX nvcc 13 emits (docs/architecture.md, "SIMD intrinsics"): __vset*
// give 1 per lane, __vcmp* an all-ones lane, __vavgs* round half away from zero, __vavgu* round
// half up, __vhaddu* truncate, __vabs*/__vneg* wrap and their ss forms saturate.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Every intrinsic with its kind: U one operand, B two, T three (unsigned int); S2, S3 two or three
// ints; PS, PU a predicate with ints or unsigned ints; P2 two predicates (pred_hi, pred_lo).
// clang-format off
#define SIMD_LIST(U, B, T, S2, S3, PS, PU, P2)                                                     \
  U(__vabs2) U(__vabs4) U(__vabsss2) U(__vabsss4) U(__vneg2) U(__vneg4) U(__vnegss2) U(__vnegss4)  \
  B(__vabsdiffs2) B(__vabsdiffs4) B(__vabsdiffu2) B(__vabsdiffu4) B(__vadd2) B(__vadd4)            \
  B(__vaddss2) B(__vaddss4) B(__vaddus2) B(__vaddus4) B(__vavgs2) B(__vavgs4) B(__vavgu2)          \
  B(__vavgu4) B(__vhaddu2) B(__vhaddu4) B(__vcmpeq2) B(__vcmpeq4) B(__vcmpne2) B(__vcmpne4)        \
  B(__vcmpges2) B(__vcmpges4) B(__vcmpgeu2) B(__vcmpgeu4) B(__vcmpgts2) B(__vcmpgts4)              \
  B(__vcmpgtu2) B(__vcmpgtu4) B(__vcmples2) B(__vcmples4) B(__vcmpleu2) B(__vcmpleu4)              \
  B(__vcmplts2) B(__vcmplts4) B(__vcmpltu2) B(__vcmpltu4) B(__vmaxs2) B(__vmaxs4) B(__vmaxu2)      \
  B(__vmaxu4) B(__vmins2) B(__vmins4) B(__vminu2) B(__vminu4) B(__vsads2) B(__vsads4)              \
  B(__vsadu2) B(__vsadu4) B(__vseteq2) B(__vseteq4) B(__vsetne2) B(__vsetne4) B(__vsetges2)        \
  B(__vsetges4) B(__vsetgeu2) B(__vsetgeu4) B(__vsetgts2) B(__vsetgts4) B(__vsetgtu2)              \
  B(__vsetgtu4) B(__vsetles2) B(__vsetles4) B(__vsetleu2) B(__vsetleu4) B(__vsetlts2)              \
  B(__vsetlts4) B(__vsetltu2) B(__vsetltu4) B(__vsub2) B(__vsub4) B(__vsubss2) B(__vsubss4)        \
  B(__vsubus2) B(__vsubus4)                                                                        \
  S2(__vimax_s32_relu) B(__vimax_s16x2_relu) S2(__vimin_s32_relu) B(__vimin_s16x2_relu)            \
  S3(__vimax3_s32) T(__vimax3_s16x2) T(__vimax3_u32) T(__vimax3_u16x2)                             \
  S3(__vimin3_s32) T(__vimin3_s16x2) T(__vimin3_u32) T(__vimin3_u16x2)                             \
  S3(__vimax3_s32_relu) T(__vimax3_s16x2_relu) S3(__vimin3_s32_relu) T(__vimin3_s16x2_relu)        \
  S3(__viaddmax_s32) T(__viaddmax_s16x2) T(__viaddmax_u32) T(__viaddmax_u16x2)                     \
  S3(__viaddmin_s32) T(__viaddmin_s16x2) T(__viaddmin_u32) T(__viaddmin_u16x2)                     \
  S3(__viaddmax_s32_relu) T(__viaddmax_s16x2_relu) S3(__viaddmin_s32_relu)                         \
  T(__viaddmin_s16x2_relu)                                                                         \
  PS(__vibmax_s32) PU(__vibmax_u32) PS(__vibmin_s32) PU(__vibmin_u32)                              \
  P2(__vibmax_s16x2) P2(__vibmax_u16x2) P2(__vibmin_s16x2) P2(__vibmin_u16x2)
// clang-format on

#define NAME(f) #f,
static const char *const names[] = {SIMD_LIST(NAME, NAME, NAME, NAME, NAME, NAME, NAME, NAME)};
#define FUNCTIONS ((int)(sizeof names / sizeof names[0]))
#define OUTPUTS 128 // per input triple, at least FUNCTIONS

// out[t * OUTPUTS + i]: intrinsic i of the list on triple t. Where a predicate is false, the value
// is xor-ed with 0x5a5a5a5a (the x2 forms: 0x5a5a0000 for pred_hi, 0x00005a5a for pred_lo).
__global__ void run_all(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *out,
                        int triples) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= triples) return;
  unsigned x = a[t], y = b[t], z = c[t], *o = out + (size_t)t * OUTPUTS;
  bool p, q;
#define RUN_U(f) *o++ = f(x);
#define RUN_B(f) *o++ = f(x, y);
#define RUN_T(f) *o++ = f(x, y, z);
#define RUN_S2(f) *o++ = (unsigned)f((int)x, (int)y);
#define RUN_S3(f) *o++ = (unsigned)f((int)x, (int)y, (int)z);
#define RUN_PS(f) *o = (unsigned)f((int)x, (int)y, &p), *o++ ^= (p ? 0u : 0x5a5a5a5au);
#define RUN_PU(f) *o = f(x, y, &p), *o++ ^= (p ? 0u : 0x5a5a5a5au);
#define RUN_P2(f) *o = f(x, y, &p, &q), *o++ ^= (p ? 0u : 0x5a5a0000u) ^ (q ? 0u : 0x00005a5au);
  SIMD_LIST(RUN_U, RUN_B, RUN_T, RUN_S2, RUN_S3, RUN_PS, RUN_PU, RUN_P2)
}

// ---- The host's computation of each rule, one lane at a time ----
static long long lane_u(unsigned v, int bits, int i) {
  return (v >> (i * bits)) & ((1u << bits) - 1u);
}
static long long lane_s(unsigned v, int bits, int i) {
  long long u = lane_u(v, bits, i);
  return u & (1LL << (bits - 1)) ? u - (1LL << bits) : u;
}
static long long clamp(long long v, long long lo, long long hi) {
  return v < lo ? lo : v > hi ? hi : v;
}
static long long llabs_(long long v) {
  return v < 0 ? -v : v;
}
// Signed (a + b) / 2, the half rounded away from zero (C's division truncates toward zero).
static long long avg_away(long long a, long long b) {
  long long s = a + b;
  return s % 2 == 0 ? s / 2 : s > 0 ? s / 2 + 1 : s / 2 - 1;
}

// Lane rule of one name (the name without its width digit); *known = 0 if there is none.
static long long lane_rule(const char *op, int *known, int bits, long long ua, long long ub,
                           long long sa, long long sb) {
  long long smax = (1LL << (bits - 1)) - 1, smin = -smax - 1, umax = (1LL << bits) - 1;
  long long ones = umax;
#define IS(s) (strcmp(op, s) == 0)
  if (IS("__vabs")) return llabs_(sa);
  if (IS("__vabsss")) return clamp(llabs_(sa), smin, smax);
  if (IS("__vneg")) return -sa;
  if (IS("__vnegss")) return clamp(-sa, smin, smax);
  if (IS("__vabsdiffs")) return llabs_(sa - sb);
  if (IS("__vabsdiffu")) return llabs_(ua - ub);
  if (IS("__vadd")) return ua + ub;
  if (IS("__vaddss")) return clamp(sa + sb, smin, smax);
  if (IS("__vaddus")) return clamp(ua + ub, 0, umax);
  if (IS("__vavgs")) return avg_away(sa, sb);
  if (IS("__vavgu")) return ua + ub - (ua + ub) / 2; // the half rounded up
  if (IS("__vhaddu")) return (ua + ub) / 2;
  if (IS("__vsub")) return ua - ub;
  if (IS("__vsubss")) return clamp(sa - sb, smin, smax);
  if (IS("__vsubus")) return clamp(ua - ub, 0, umax);
  if (IS("__vmaxs")) return sa > sb ? sa : sb;
  if (IS("__vmaxu")) return ua > ub ? ua : ub;
  if (IS("__vmins")) return sa < sb ? sa : sb;
  if (IS("__vminu")) return ua < ub ? ua : ub;
  if (IS("__vcmpeq")) return ua == ub ? ones : 0;
  if (IS("__vcmpne")) return ua != ub ? ones : 0;
  if (IS("__vcmpges")) return sa >= sb ? ones : 0;
  if (IS("__vcmpgeu")) return ua >= ub ? ones : 0;
  if (IS("__vcmpgts")) return sa > sb ? ones : 0;
  if (IS("__vcmpgtu")) return ua > ub ? ones : 0;
  if (IS("__vcmples")) return sa <= sb ? ones : 0;
  if (IS("__vcmpleu")) return ua <= ub ? ones : 0;
  if (IS("__vcmplts")) return sa < sb ? ones : 0;
  if (IS("__vcmpltu")) return ua < ub ? ones : 0;
  if (IS("__vseteq")) return ua == ub;
  if (IS("__vsetne")) return ua != ub;
  if (IS("__vsetges")) return sa >= sb;
  if (IS("__vsetgeu")) return ua >= ub;
  if (IS("__vsetgts")) return sa > sb;
  if (IS("__vsetgtu")) return ua > ub;
  if (IS("__vsetles")) return sa <= sb;
  if (IS("__vsetleu")) return ua <= ub;
  if (IS("__vsetlts")) return sa < sb;
  if (IS("__vsetltu")) return ua < ub;
#undef IS
  *known = 0;
  return 0;
}

static long long max3(long long a, long long b, long long c) {
  long long m = a > b ? a : b;
  return m > c ? m : c;
}
static long long min3(long long a, long long b, long long c) {
  long long m = a < b ? a : b;
  return m < c ? m : c;
}

// The sm_90-era functions on one lane of `bits` bits (32 or 16), as signed or unsigned values.
// The add of addmax/addmin wraps to the lane's width; relu clamps below at 0.
static long long vi_rule(const char *name, int bits, int is_signed, long long a, long long b,
                         long long c, int *pred) {
  long long r = 0, sum = a + b;
  long long span = 1LL << bits;
  sum = ((sum % span) + span) % span; // wrap to the lane...
  if (is_signed && sum >= span / 2)   // ...as a signed value
    sum -= span;
  if (strstr(name, "max3"))
    r = max3(a, b, c);
  else if (strstr(name, "min3"))
    r = min3(a, b, c);
  else if (strstr(name, "addmax"))
    r = sum > c ? sum : c;
  else if (strstr(name, "addmin"))
    r = sum < c ? sum : c;
  else if (strstr(name, "bmax"))
    r = a > b ? a : b, *pred = a >= b;
  else if (strstr(name, "bmin"))
    r = a < b ? a : b, *pred = a <= b;
  else if (strstr(name, "max"))
    r = a > b ? a : b;
  else if (strstr(name, "min"))
    r = a < b ? a : b;
  if (strstr(name, "relu") && r < 0) r = 0;
  return r;
}

static unsigned expected(const char *name, unsigned a, unsigned b, unsigned c) {
  char op[32];
  if (strncmp(name, "__vi", 4) == 0) {
    int is_signed = strstr(name, "_s") != NULL, x2 = strstr(name, "16x2") != NULL;
    int bits = x2 ? 16 : 32, pred[2] = {1, 1};
    unsigned r = 0;
    for (int i = 0; i < 32 / bits; ++i) {
      long long va, vb, vc;
      if (bits == 32) {
        va = is_signed ? (long long)(int)a : (long long)a;
        vb = is_signed ? (long long)(int)b : (long long)b;
        vc = is_signed ? (long long)(int)c : (long long)c;
      } else {
        va = is_signed ? lane_s(a, 16, i) : lane_u(a, 16, i);
        vb = is_signed ? lane_s(b, 16, i) : lane_u(b, 16, i);
        vc = is_signed ? lane_s(c, 16, i) : lane_u(c, 16, i);
      }
      long long v = vi_rule(name, bits, is_signed, va, vb, vc, &pred[i]);
      r |= (unsigned)((unsigned long long)v & (bits == 32 ? 0xffffffffull : 0xffffull)) << (16 * i);
    }
    if (strstr(name, "__vib") && bits == 32)
      r ^= pred[0] ? 0u : 0x5a5a5a5au;
    else if (strstr(name, "__vib")) // pred[1] is the upper lane (pred_hi), pred[0] the lower
      r ^= (pred[1] ? 0u : 0x5a5a0000u) ^ (pred[0] ? 0u : 0x00005a5au);
    return r;
  }
  size_t n = strlen(name);
  int bits = name[n - 1] == '2' ? 16 : 8;
  snprintf(op, sizeof op, "%.*s", (int)(n - 1), name);
  int sad = strcmp(op, "__vsads") == 0 || strcmp(op, "__vsadu") == 0;
  unsigned r = 0;
  for (int i = 0; i < 32 / bits; ++i) {
    const char *rule = sad ? (op[6] == 's' ? "__vabsdiffs" : "__vabsdiffu") : op;
    int known = 1;
    long long v = lane_rule(rule, &known, bits, lane_u(a, bits, i), lane_u(b, bits, i),
                            lane_s(a, bits, i), lane_s(b, bits, i));
    if (!known) {
      fprintf(stderr, "FAIL: no host rule for %s\n", name);
      exit(1);
    }
    if (sad)
      r += (unsigned)v; // the plain sum of the lanes' absolute differences
    else
      r |= (unsigned)((unsigned long long)v & ((1u << bits) - 1u)) << (i * bits);
  }
  return r;
}

// Lane values that matter: 0, 1, -1, the most negative and most positive, their neighbours, and a
// middle value; the words below mix them so that neighbouring lanes differ in sign.
static const unsigned edge_words[] = {
    0x00000000u, 0xffffffffu, 0x80808080u, 0x7f7f7f7fu, 0x80007fffu, 0x7fff8000u,
    0x01ff80feu, 0x00ff00ffu, 0xff00ff00u, 0x00010001u, 0xfffe0002u, 0x7f80ff01u,
    0x4000c000u, 0x0100ff00u, 0x80000000u, 0x7fffffffu, 0x00000001u, 0x81817f7fu,
    0xc0c04040u, 0x8001fffdu, 0x00030005u, 0xfffdfffbu, 0x12345678u, 0xfedcba98u};
#define EDGES ((int)(sizeof edge_words / sizeof edge_words[0]))
#define RANDOM 2048

// Values the PTX nvcc 13 emits gives (read against the PTX ISA), written out as a second check
// that does not go through the host's rules above.
struct anchor {
  const char *name;
  unsigned a, b, result;
};
static const struct anchor anchors[] = {
    {"__vsetgts4", 0x01ff0180u, 0x00000000u, 0x01000100u}, // one 1 per lane, not a single 1
    {"__vcmpgtu2", 0x00018000u, 0x00007fffu, 0xffffffffu},
    {"__vavgs2", 0xfffd0003u, 0x00000000u, 0xfffe0002u},  // -1.5 -> -2, 1.5 -> 2
    {"__vavgu4", 0x01ff0000u, 0x00000100u, 0x01800100u},  // 0.5 -> 1, 127.5 -> 128
    {"__vhaddu4", 0x01ff0001u, 0x00010000u, 0x00800000u}, // truncates
    {"__vabs4", 0x80ff7f01u, 0, 0x80017f01u},             // -128 stays 0x80
    {"__vabsss4", 0x80ff7f01u, 0, 0x7f017f01u},           // -128 saturates to 127
    {"__vnegss2", 0x80000001u, 0, 0x7fffffffu},
    {"__vsads4", 0x80808080u, 0x7f7f7f7fu, 1020u},
    {"__vsadu2", 0xffff0000u, 0x0000ffffu, 131070u},
    {"__vadd4", 0x01ff80ffu, 0x00018001u, 0x01000000u}, // no carry into the next lane
    {"__vsubus2", 0x00010005u, 0x00020003u, 0x00000002u},
    {"__vaddss4", 0x7f80017fu, 0x01ff0101u, 0x7f80027fu},
};
#define ANCHORS ((int)(sizeof anchors / sizeof anchors[0]))
#define TRIPLES (EDGES * EDGES + ANCHORS + RANDOM)

static unsigned next_random(unsigned *state) {
  *state ^= *state << 13;
  *state ^= *state >> 17;
  *state ^= *state << 5;
  return *state;
}

int main(void) {
  if (FUNCTIONS > OUTPUTS) {
    printf("FAIL simd_intrinsics: %d functions, room for %d\n", FUNCTIONS, OUTPUTS);
    return 1;
  }
  static unsigned a[TRIPLES], b[TRIPLES], c[TRIPLES], got[(size_t)TRIPLES * OUTPUTS];
  unsigned state = 2463534242u;
  for (int i = 0; i < EDGES * EDGES; ++i) {
    a[i] = edge_words[i / EDGES];
    b[i] = edge_words[i % EDGES];
    c[i] = edge_words[(i / EDGES + i % EDGES) % EDGES];
  }
  for (int i = 0; i < ANCHORS; ++i) {
    a[EDGES * EDGES + i] = anchors[i].a;
    b[EDGES * EDGES + i] = anchors[i].b;
    c[EDGES * EDGES + i] = 0;
  }
  for (int i = EDGES * EDGES + ANCHORS; i < TRIPLES; ++i) {
    a[i] = next_random(&state);
    b[i] = next_random(&state);
    c[i] = next_random(&state);
  }
  unsigned *da, *db, *dc, *dout;
  cudaMalloc(&da, sizeof a);
  cudaMalloc(&db, sizeof b);
  cudaMalloc(&dc, sizeof c);
  cudaMalloc(&dout, sizeof got);
  cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
  cudaMemcpy(dc, c, sizeof c, cudaMemcpyHostToDevice);
  run_all<<<(TRIPLES + 127) / 128, 128>>>(da, db, dc, dout, TRIPLES);
  cudaError_t err = cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    printf("FAIL simd_intrinsics: %s\n", cudaGetErrorString(err));
    return 1;
  }
  int wrong = 0;
  for (int f = 0; f < FUNCTIONS; ++f) {
    int wrong_here = 0;
    for (int t = 0; t < TRIPLES; ++t) {
      unsigned want = expected(names[f], a[t], b[t], c[t]), have = got[(size_t)t * OUTPUTS + f];
      if (want != have && wrong_here++ == 0)
        printf("FAIL %s(0x%08x, 0x%08x, 0x%08x) = 0x%08x, expected 0x%08x\n", names[f], a[t], b[t],
               c[t], have, want);
    }
    wrong += wrong_here != 0;
  }
  for (int i = 0; i < ANCHORS; ++i) {
    int f = 0;
    while (f < FUNCTIONS && strcmp(names[f], anchors[i].name) != 0) ++f;
    unsigned want = anchors[i].result;
    // The anchor through the host's rules too: a wrong rule there cannot hide a wrong intrinsic.
    unsigned have = f < FUNCTIONS ? got[(size_t)(EDGES * EDGES + i) * OUTPUTS + f] : 0;
    if (f == FUNCTIONS || have != want ||
        expected(names[f], anchors[i].a, anchors[i].b, 0) != want) {
      printf("FAIL anchor %s(0x%08x, 0x%08x) = 0x%08x, the PTX gives 0x%08x\n", anchors[i].name,
             anchors[i].a, anchors[i].b, have, want);
      ++wrong;
    }
  }
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  cudaFree(dout);
  if (wrong) {
    printf("FAIL simd_intrinsics: %d of %d intrinsics or anchors wrong\n", wrong, FUNCTIONS);
    return 1;
  }
  printf("PASS simd_intrinsics: %d intrinsics on %d input triples\n", FUNCTIONS, TRIPLES);
  return 0;
}
