// cuRAND's device API for CPU simulator builds (shared/sim).
//
// Two generators, written from the published algorithms so that a kernel draws the same numbers
// on the simulator as on a GPU:
//
// * XORWOW (curandState, curandStateXORWOW_t), Marsaglia's xorshift generator with a Weyl
//   sequence added. curand_init(seed, subsequence, offset, &state) scrambles the seed into the
//   five state words, then jumps 2^67 * subsequence + offset steps ahead. A jump is a product of
//   160x160 bit matrices over GF(2): the one-step matrix is squared repeatedly, once, the first
//   time a jump is needed, and the powers M^(2^k) are kept for the life of the program.
// * Philox4x32-10 (curandStatePhilox4_32_10_t), the counter-based generator of Salmon et al.
//   (Random123): the 64-bit seed is the key, the subsequence the upper half of the 128-bit
//   counter, the offset counts single outputs (four per counter value).
//
// What agrees bit for bit with NVIDIA's cuRAND (checked against the toolkit's own header by
// tests/sim/programs/curand_bits.cu): curand(), curand4(), skipahead(), skipahead_sequence(),
// curand_uniform(), curand_uniform4(), curand_uniform_double(), curand_uniform2_double(), and the
// order in which every function consumes the stream (including the second Box-Muller value that
// curand_normal() keeps for the next call). The normal and log-normal values follow cuRAND's
// host-side formulas with the C library's logf/sinf/cosf; a GPU computes them with its own
// approximate sine and cosine, so they can differ from a GPU's in the last bits (about 1e-6).
// curand_poisson() draws the same stream as cuRAND for lambda < 64 (Knuth's method) and above
// 4000 (normal approximation); between those it uses Hormann's PTRS rejection method, which has
// the right distribution but not cuRAND's exact draws.
#ifndef CUSIM_CURAND_KERNEL_H
#define CUSIM_CURAND_KERNEL_H
/* The toolkit's own guard name: programs test it (helper_cuda.h does). */
#define _CURAND_KERNEL_H_

#ifndef __cplusplus
#error "curand_kernel.h is for CUDA C++ (.cu) sources"
#endif

#include <cuda_runtime.h>

#include <math.h>
#include <stdint.h>

#include "curand.h"

namespace cusim {
namespace rand {

// One XORWOW step on the 160-bit shift register (the Weyl counter is handled by the caller).
inline void xorwow_shift(unsigned int v[5]) {
  unsigned int t = v[0] ^ (v[0] >> 2);
  v[0] = v[1];
  v[1] = v[2];
  v[2] = v[3];
  v[3] = v[4];
  v[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
}

// A linear map on 160-bit vectors. row[i] is the image of the vector with only bit i set (bit i
// lives in word i / 32, position i % 32), so the image of any vector is the XOR of the rows of
// its set bits.
struct bit_matrix {
  unsigned int row[160][5];
};

// The same map as a table of 40 nibbles x 16 values: applying it takes 40 lookups.
struct nibble_table {
  unsigned int entry[40][16][5];
};

inline void apply(const nibble_table &t, unsigned int v[5]) {
  unsigned int out[5] = {0, 0, 0, 0, 0};
  for (int n = 0; n < 40; ++n) {
    const unsigned int *e = t.entry[n][(v[n / 8] >> (4 * (n % 8))) & 15u];
    for (int k = 0; k < 5; ++k) {
      out[k] ^= e[k];
    }
  }
  for (int k = 0; k < 5; ++k) {
    v[k] = out[k];
  }
}

// The powers M^(2^k) of the one-step map for k = 0 .. 130: enough for any 64-bit offset
// (k < 64) and any 64-bit subsequence (k = 67 .. 130, a subsequence being 2^67 steps). Built
// once, the first time a state jumps (a few milliseconds), then shared read-only.
class xorwow_jumps {
public:
  static constexpr int count = 131;

  xorwow_jumps() : power_(new nibble_table[count]) {
    bit_matrix current;
    for (int i = 0; i < 160; ++i) {
      unsigned int *r = current.row[i];
      for (int k = 0; k < 5; ++k) {
        r[k] = 0;
      }
      r[i / 32] = 1u << (i % 32);
      xorwow_shift(r);
    }
    for (int p = 0; p < count; ++p) {
      for (int n = 0; n < 40; ++n) {
        for (unsigned int value = 0; value < 16; ++value) {
          unsigned int *e = power_[p].entry[n][value];
          for (int k = 0; k < 5; ++k) {
            e[k] = 0;
          }
          for (int b = 0; b < 4; ++b) {
            if (value & (1u << b)) {
              for (int k = 0; k < 5; ++k) {
                e[k] ^= current.row[4 * n + b][k];
              }
            }
          }
        }
      }
      // Squaring: the image of bit i under M^2 is M applied to its image under M.
      for (int i = 0; i < 160; ++i) {
        apply(power_[p], current.row[i]);
      }
    }
  }
  ~xorwow_jumps() { delete[] power_; }
  xorwow_jumps(const xorwow_jumps &) = delete;
  xorwow_jumps &operator=(const xorwow_jumps &) = delete;

  // Advances v by n * 2^shift steps.
  void advance(unsigned int v[5], unsigned long long n, int shift) const {
    for (int bit = 0; n != 0; ++bit, n >>= 1) {
      if (n & 1) {
        apply(power_[bit + shift], v);
      }
    }
  }

private:
  nibble_table *power_;
};

inline const xorwow_jumps &jumps() {
  static const xorwow_jumps table;
  return table;
}

// Philox4x32-10: ten rounds of two 32x32->64 multiplications with a key schedule bumped by the
// Weyl constants (golden ratio and sqrt(3) - 1, as 32-bit fractions).
inline uint4 philox4x32_10(uint4 counter, uint2 key) {
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      key.x += 0x9E3779B9u;
      key.y += 0xBB67AE85u;
    }
    const unsigned long long p0 = 0xD2511F53ull * counter.x;
    const unsigned long long p1 = 0xCD9E8D57ull * counter.z;
    uint4 next;
    next.x = (unsigned int)(p1 >> 32) ^ counter.y ^ key.x;
    next.y = (unsigned int)p1;
    next.z = (unsigned int)(p0 >> 32) ^ counter.w ^ key.y;
    next.w = (unsigned int)p0;
    counter = next;
  }
  return counter;
}

constexpr float two_pow_minus_32 = 0x1p-32f;
constexpr double two_pow_minus_32_double = 0x1p-32;
constexpr double two_pow_minus_53_double = 0x1p-53;
// 2 pi rounded to float, scaled by 2^-32 (exact: the scaling is by a power of two).
constexpr float two_pi_over_two_pow_32 = 6.2831855f * 0x1p-32f;
constexpr double pi_double = 3.1415926535897932;

inline float uniform_from_bits(unsigned int x) {
  return x * two_pow_minus_32 + two_pow_minus_32 / 2.0f;
}

// 53 random bits from two draws: the first fills the low 32 bits, the second the high 21.
inline double uniform_double_from_bits(unsigned int low, unsigned int high) {
  const unsigned long long z = (unsigned long long)low ^ ((unsigned long long)high << 21);
  return z * two_pow_minus_53_double + two_pow_minus_53_double / 2.0;
}

inline float2 box_muller(unsigned int x, unsigned int y) {
  const float u = x * two_pow_minus_32 + two_pow_minus_32 / 2.0f;
  const float angle = y * two_pi_over_two_pow_32 + two_pi_over_two_pow_32 / 2.0f;
  const float radius = sqrtf(-2.0f * logf(u));
  float2 result;
  result.x = sinf(angle) * radius;
  result.y = cosf(angle) * radius;
  return result;
}

inline double2 box_muller_double(unsigned int x0, unsigned int x1, unsigned int y0,
                                 unsigned int y1) {
  const unsigned long long zx = (unsigned long long)x0 ^ ((unsigned long long)x1 << 21);
  const unsigned long long zy = (unsigned long long)y0 ^ ((unsigned long long)y1 << 21);
  const double u = zx * two_pow_minus_53_double + two_pow_minus_53_double / 2.0;
  // The angle in half turns, in (0, 2].
  const double half_turns = zy * (two_pow_minus_53_double * 2.0) + two_pow_minus_53_double;
  const double radius = sqrt(-2.0 * log(u));
  double2 result;
  result.x = sin(half_turns * pi_double) * radius;
  result.y = cos(half_turns * pi_double) * radius;
  return result;
}

// Which value a state keeps for its next normal draw (cuRAND's values, so a log-normal draw
// never hands out a cached plain normal or the reverse).
constexpr int kept_normal = 1;
constexpr int kept_log_normal = 2;

} // namespace rand
} // namespace cusim

struct curandStateXORWOW {
  unsigned int d;
  unsigned int v[5];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

struct curandStatePhilox4_32_10 {
  uint4 ctr;
  uint4 output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

// XORWOW ------------------------------------------------------------------------------------------

inline unsigned int curand(curandStateXORWOW_t *state) {
  cusim::rand::xorwow_shift(state->v);
  state->d += 362437u;
  return state->v[4] + state->d;
}

inline void skipahead(unsigned long long n, curandStateXORWOW_t *state) {
  if (n != 0) {
    cusim::rand::jumps().advance(state->v, n, 0);
  }
  state->d += 362437u * (unsigned int)n;
}

// A subsequence is 2^67 steps; the Weyl counter moves by a multiple of 2^32 and stays put.
inline void skipahead_sequence(unsigned long long n, curandStateXORWOW_t *state) {
  if (n != 0) {
    cusim::rand::jumps().advance(state->v, n, 67);
  }
}

inline void curand_init(unsigned long long seed, unsigned long long subsequence,
                        unsigned long long offset, curandStateXORWOW_t *state) {
  // Seed scramble: each half of the seed is salted, then multiplied by an odd constant; seed 0
  // gives Marsaglia's published starting values.
  const unsigned int low = (unsigned int)seed ^ 0xaad26b49u;
  const unsigned int high = (unsigned int)(seed >> 32) ^ 0xf7dcefddu;
  const unsigned int a = 1099087573u * low;
  const unsigned int b = 2591861531u * high;
  state->d = 6615241u + b + a;
  state->v[0] = 123456789u + a;
  state->v[1] = 362436069u ^ a;
  state->v[2] = 521288629u + b;
  state->v[3] = 88675123u ^ b;
  state->v[4] = 5783321u + a;
  skipahead_sequence(subsequence, state);
  skipahead(offset, state);
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.0f;
  state->boxmuller_extra_double = 0.0;
}

// Philox4x32-10 -----------------------------------------------------------------------------------

namespace cusim {
namespace rand {

// Adds n to the low 64 bits of the 128-bit counter, carrying into the upper half as cuRAND does.
inline void counter_add(uint4 &c, unsigned long long n) {
  const unsigned int add_low = (unsigned int)n;
  unsigned int add_high = (unsigned int)(n >> 32);
  c.x += add_low;
  if (c.x < add_low) {
    ++add_high;
  }
  c.y += add_high;
  if (c.y >= add_high) {
    return;
  }
  if (++c.z != 0) {
    return;
  }
  ++c.w;
}

inline void counter_next(uint4 &c) {
  if (++c.x != 0) {
    return;
  }
  if (++c.y != 0) {
    return;
  }
  if (++c.z != 0) {
    return;
  }
  ++c.w;
}

inline unsigned int lane(const uint4 &v, unsigned int i) {
  switch (i) {
  case 0:
    return v.x;
  case 1:
    return v.y;
  case 2:
    return v.z;
  default:
    return v.w;
  }
}

} // namespace rand
} // namespace cusim

inline unsigned int curand(curandStatePhilox4_32_10_t *state) {
  // state->output[STATE] is always the next value to hand out.
  const unsigned int value = cusim::rand::lane(state->output, state->STATE);
  if (++state->STATE == 4) {
    cusim::rand::counter_next(state->ctr);
    state->output = cusim::rand::philox4x32_10(state->ctr, state->key);
    state->STATE = 0;
  }
  return value;
}

inline uint4 curand4(curandStatePhilox4_32_10_t *state) {
  const uint4 current = state->output;
  cusim::rand::counter_next(state->ctr);
  state->output = cusim::rand::philox4x32_10(state->ctr, state->key);
  const unsigned int start = state->STATE;
  uint4 r;
  r.x = start + 0 < 4 ? cusim::rand::lane(current, start + 0)
                      : cusim::rand::lane(state->output, start + 0 - 4);
  r.y = start + 1 < 4 ? cusim::rand::lane(current, start + 1)
                      : cusim::rand::lane(state->output, start + 1 - 4);
  r.z = start + 2 < 4 ? cusim::rand::lane(current, start + 2)
                      : cusim::rand::lane(state->output, start + 2 - 4);
  r.w = start + 3 < 4 ? cusim::rand::lane(current, start + 3)
                      : cusim::rand::lane(state->output, start + 3 - 4);
  return r;
}

inline void skipahead(unsigned long long n, curandStatePhilox4_32_10_t *state) {
  state->STATE += (unsigned int)(n & 3);
  n /= 4;
  if (state->STATE > 3) {
    ++n;
    state->STATE -= 4;
  }
  cusim::rand::counter_add(state->ctr, n);
  state->output = cusim::rand::philox4x32_10(state->ctr, state->key);
}

// A subsequence is 2^66 outputs: the upper 64 bits of the counter (no carry out of them).
inline void skipahead_sequence(unsigned long long n, curandStatePhilox4_32_10_t *state) {
  const unsigned int add_low = (unsigned int)n;
  unsigned int add_high = (unsigned int)(n >> 32);
  state->ctr.z += add_low;
  if (state->ctr.z < add_low) {
    ++add_high;
  }
  state->ctr.w += add_high;
  state->output = cusim::rand::philox4x32_10(state->ctr, state->key);
}

inline void curand_init(unsigned long long seed, unsigned long long subsequence,
                        unsigned long long offset, curandStatePhilox4_32_10_t *state) {
  state->ctr = make_uint4(0, 0, 0, 0);
  state->key.x = (unsigned int)seed;
  state->key.y = (unsigned int)(seed >> 32);
  state->STATE = 0;
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.0f;
  state->boxmuller_extra_double = 0.0;
  skipahead_sequence(subsequence, state);
  skipahead(offset, state);
}

// Uniform distributions: (0, 1], never denormal ---------------------------------------------------

inline float curand_uniform(curandStateXORWOW_t *state) {
  return cusim::rand::uniform_from_bits(curand(state));
}

inline float curand_uniform(curandStatePhilox4_32_10_t *state) {
  return cusim::rand::uniform_from_bits(curand(state));
}

inline float4 curand_uniform4(curandStatePhilox4_32_10_t *state) {
  const uint4 bits = curand4(state);
  return make_float4(cusim::rand::uniform_from_bits(bits.x), cusim::rand::uniform_from_bits(bits.y),
                     cusim::rand::uniform_from_bits(bits.z),
                     cusim::rand::uniform_from_bits(bits.w));
}

inline double curand_uniform_double(curandStateXORWOW_t *state) {
  const unsigned int low = curand(state);
  const unsigned int high = curand(state);
  return cusim::rand::uniform_double_from_bits(low, high);
}

// cuRAND builds Philox's single double from one 32-bit draw (curand_uniform2_double has 53 bits).
inline double curand_uniform_double(curandStatePhilox4_32_10_t *state) {
  return curand(state) * cusim::rand::two_pow_minus_32_double +
         cusim::rand::two_pow_minus_32_double;
}

inline double2 curand_uniform2_double(curandStatePhilox4_32_10_t *state) {
  const uint4 bits = curand4(state);
  return make_double2(cusim::rand::uniform_double_from_bits(bits.x, bits.y),
                      cusim::rand::uniform_double_from_bits(bits.z, bits.w));
}

// Normal distributions (Box-Muller) ---------------------------------------------------------------

namespace cusim {
namespace rand {

template <class State> float2 normal_pair(State *state) {
  const unsigned int x = curand(state);
  const unsigned int y = curand(state);
  return box_muller(x, y);
}

inline double2 normal_pair_double(curandStateXORWOW_t *state) {
  const unsigned int x0 = curand(state);
  const unsigned int x1 = curand(state);
  const unsigned int y0 = curand(state);
  const unsigned int y1 = curand(state);
  return box_muller_double(x0, x1, y0, y1);
}

inline double2 normal_pair_double(curandStatePhilox4_32_10_t *state) {
  const uint4 bits = curand4(state);
  return box_muller_double(bits.x, bits.y, bits.z, bits.w);
}

// One value of a Box-Muller pair now, the other kept in the state for the next call of the same
// kind. transform maps a standard normal to the wanted distribution.
template <class State, class Transform> float next_normal(State *state, int kind, Transform f) {
  if (state->boxmuller_flag != kind) {
    const float2 pair = normal_pair(state);
    state->boxmuller_extra = f(pair.y);
    state->boxmuller_flag = kind;
    return f(pair.x);
  }
  state->boxmuller_flag = 0;
  return state->boxmuller_extra;
}

template <class State, class Transform>
double next_normal_double(State *state, int kind, Transform f) {
  if (state->boxmuller_flag_double != kind) {
    const double2 pair = normal_pair_double(state);
    state->boxmuller_extra_double = f(pair.y);
    state->boxmuller_flag_double = kind;
    return f(pair.x);
  }
  state->boxmuller_flag_double = 0;
  return state->boxmuller_extra_double;
}

} // namespace rand
} // namespace cusim

inline float curand_normal(curandStateXORWOW_t *state) {
  return cusim::rand::next_normal(state, cusim::rand::kept_normal, [](float z) { return z; });
}

inline float curand_normal(curandStatePhilox4_32_10_t *state) {
  return cusim::rand::next_normal(state, cusim::rand::kept_normal, [](float z) { return z; });
}

inline double curand_normal_double(curandStateXORWOW_t *state) {
  return cusim::rand::next_normal_double(state, cusim::rand::kept_normal,
                                         [](double z) { return z; });
}

inline double curand_normal_double(curandStatePhilox4_32_10_t *state) {
  return cusim::rand::next_normal_double(state, cusim::rand::kept_normal,
                                         [](double z) { return z; });
}

inline float2 curand_normal2(curandStateXORWOW_t *state) {
  return cusim::rand::normal_pair(state);
}

inline float2 curand_normal2(curandStatePhilox4_32_10_t *state) {
  return cusim::rand::normal_pair(state);
}

inline float4 curand_normal4(curandStatePhilox4_32_10_t *state) {
  const uint4 bits = curand4(state);
  const float2 a = cusim::rand::box_muller(bits.x, bits.y);
  const float2 b = cusim::rand::box_muller(bits.z, bits.w);
  return make_float4(a.x, a.y, b.x, b.y);
}

inline double2 curand_normal2_double(curandStateXORWOW_t *state) {
  return cusim::rand::normal_pair_double(state);
}

inline double2 curand_normal2_double(curandStatePhilox4_32_10_t *state) {
  return cusim::rand::normal_pair_double(state);
}

// Log-normal distributions: exp(mean + stddev * normal) -------------------------------------------

inline float curand_log_normal(curandStateXORWOW_t *state, float mean, float stddev) {
  return cusim::rand::next_normal(state, cusim::rand::kept_log_normal,
                                  [=](float z) { return expf(mean + (stddev * z)); });
}

inline float curand_log_normal(curandStatePhilox4_32_10_t *state, float mean, float stddev) {
  return cusim::rand::next_normal(state, cusim::rand::kept_log_normal,
                                  [=](float z) { return expf(mean + (stddev * z)); });
}

inline double curand_log_normal_double(curandStateXORWOW_t *state, double mean, double stddev) {
  return cusim::rand::next_normal_double(state, cusim::rand::kept_log_normal,
                                         [=](double z) { return exp(mean + (stddev * z)); });
}

inline double curand_log_normal_double(curandStatePhilox4_32_10_t *state, double mean,
                                       double stddev) {
  return cusim::rand::next_normal_double(state, cusim::rand::kept_log_normal,
                                         [=](double z) { return exp(mean + (stddev * z)); });
}

inline float2 curand_log_normal2(curandStateXORWOW_t *state, float mean, float stddev) {
  const float2 z = cusim::rand::normal_pair(state);
  return make_float2(expf(mean + (stddev * z.x)), expf(mean + (stddev * z.y)));
}

inline float2 curand_log_normal2(curandStatePhilox4_32_10_t *state, float mean, float stddev) {
  const float2 z = cusim::rand::normal_pair(state);
  return make_float2(expf(mean + (stddev * z.x)), expf(mean + (stddev * z.y)));
}

inline float4 curand_log_normal4(curandStatePhilox4_32_10_t *state, float mean, float stddev) {
  const float4 z = curand_normal4(state);
  return make_float4(expf(mean + (stddev * z.x)), expf(mean + (stddev * z.y)),
                     expf(mean + (stddev * z.z)), expf(mean + (stddev * z.w)));
}

inline double2 curand_log_normal2_double(curandStateXORWOW_t *state, double mean, double stddev) {
  const double2 z = cusim::rand::normal_pair_double(state);
  return make_double2(exp(mean + (stddev * z.x)), exp(mean + (stddev * z.y)));
}

inline double2 curand_log_normal2_double(curandStatePhilox4_32_10_t *state, double mean,
                                         double stddev) {
  const double2 z = cusim::rand::normal_pair_double(state);
  return make_double2(exp(mean + (stddev * z.x)), exp(mean + (stddev * z.y)));
}

// Poisson distribution ----------------------------------------------------------------------------

namespace cusim {
namespace rand {

// log(k!) without lgamma(), which writes the global signgam (a data race between CUDA threads).
inline double log_factorial(double k) {
  if (k < 16) {
    double sum = 0.0;
    for (double i = 2; i <= k; ++i) {
      sum += log(i);
    }
    return sum;
  }
  // Stirling series for log Gamma(n), n = k + 1 >= 17: the error is below 1e-13.
  const double n = k + 1;
  const double inverse = 1.0 / n;
  const double inverse_squared = inverse * inverse;
  const double series =
      inverse * (1.0 / 12 - inverse_squared * (1.0 / 360 - inverse_squared * (1.0 / 1260)));
  return (n - 0.5) * log(n) - n + 0.91893853320467274178 + series;
}

template <class State> unsigned int poisson(State *state, double lambda) {
  if (lambda < 64) {
    // Knuth: multiply uniforms until the product drops to exp(-lambda) (scaled by exp(lambda)).
    const float threshold_scale = expf((float)lambda);
    float product = threshold_scale;
    unsigned int draws = 0;
    do {
      ++draws;
      product *= curand_uniform(state);
    } while (product > 1.0);
    return draws - 1;
  }
  if (lambda > 4000) {
    return (unsigned int)((sqrt(lambda) * curand_normal_double(state)) + lambda + 0.5);
  }
  // Hormann's transformed rejection with squeeze (PTRS), valid for lambda >= 10.
  const double root = sqrt(lambda);
  const double log_lambda = log(lambda);
  const double b = 0.931 + 2.53 * root;
  const double a = -0.059 + 0.02483 * b;
  const double inverse_alpha = 1.1239 + 1.1328 / (b - 3.4);
  const double v_r = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    const double u = curand_uniform_double(state) - 0.5;
    const double v = curand_uniform_double(state);
    const double us = 0.5 - fabs(u);
    const double k = floor((2 * a / us + b) * u + lambda + 0.43);
    if (us >= 0.07 && v <= v_r) {
      return (unsigned int)k;
    }
    if (k < 0 || (us < 0.013 && v > us)) {
      continue;
    }
    if (log(v) + log(inverse_alpha) - log(a / (us * us) + b) <=
        -lambda + k * log_lambda - log_factorial(k)) {
      return (unsigned int)k;
    }
  }
}

} // namespace rand
} // namespace cusim

inline unsigned int curand_poisson(curandStateXORWOW_t *state, double lambda) {
  return cusim::rand::poisson(state, lambda);
}

inline unsigned int curand_poisson(curandStatePhilox4_32_10_t *state, double lambda) {
  return cusim::rand::poisson(state, lambda);
}

#endif // CUSIM_CURAND_KERNEL_H
