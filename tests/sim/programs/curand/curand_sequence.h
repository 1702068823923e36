/* A fixed sequence of cuRAND device calls, shared by curand_bits.cu (which runs it in a kernel,
 * on a GPU or on the simulator) and make_curand_reference.cu (which runs it on the host with the
 * toolkit's own curand_kernel.h to produce curand_reference.h). Every result is written out as
 * 32-bit words, with a kind that says how the words may be compared. */
#ifndef CURAND_SEQUENCE_H
#define CURAND_SEQUENCE_H

#include <string.h>

/* Device functions in a kernel; the reference generator makes them host functions as well. */
#ifndef SEQUENCE_QUALIFIERS
#define SEQUENCE_QUALIFIERS __device__
#endif

#define SEQUENCE_MAX_WORDS 128
#define SEQUENCE_CASES 8

/* How a word compares: exactly, or (for values computed with sine, cosine, log and exp, which a
 * GPU evaluates with its own approximations) within a small tolerance. */
enum word_kind {
  WORD_EXACT = 0,
  WORD_FLOAT_CLOSE = 1,
  WORD_DOUBLE_CLOSE_HIGH = 2,
  WORD_DOUBLE_CLOSE_LOW = 3,
  WORD_COUNT_CLOSE = 4
};

struct word_sink {
  unsigned int *words;
  unsigned char *kinds;
  int count;
};

struct sequence_case {
  unsigned long long seed;
  unsigned long long subsequence;
  unsigned long long offset;
};

/* Seeds, subsequences and offsets from trivial to the largest 64-bit values. */
#define SEQUENCE_CASE_LIST                                                                         \
  {                                                                                                \
    {0ull, 0ull, 0ull}, {1234ull, 0ull, 0ull}, {1234ull, 1ull, 0ull}, {1234ull, 5ull, 7ull},       \
        {0xdeadbeefcafebabeull, 1000ull, 123456ull},                                               \
        {42ull, (1ull << 40) + 3ull, (1ull << 35) + 11ull},                                        \
        {7ull, 0xffffffffffffffffull, 0xffffffffffffffffull}, {                                    \
      99ull, 65535ull, 3ull                                                                        \
    }                                                                                              \
  }

SEQUENCE_QUALIFIERS inline void put_word(struct word_sink *sink, unsigned int word,
                                         unsigned char kind) {
  if (sink->count < SEQUENCE_MAX_WORDS) {
    sink->words[sink->count] = word;
    sink->kinds[sink->count] = kind;
  }
  sink->count++;
}

SEQUENCE_QUALIFIERS inline void put_float(struct word_sink *sink, float value, unsigned char kind) {
  unsigned int word;
  memcpy(&word, &value, sizeof word);
  put_word(sink, word, kind);
}

SEQUENCE_QUALIFIERS inline void put_double(struct word_sink *sink, double value, int exact) {
  unsigned long long bits;
  memcpy(&bits, &value, sizeof bits);
  put_word(sink, (unsigned int)(bits >> 32), exact ? WORD_EXACT : WORD_DOUBLE_CLOSE_HIGH);
  put_word(sink, (unsigned int)bits, exact ? WORD_EXACT : WORD_DOUBLE_CLOSE_LOW);
}

/* Calls both generators support, in an order that exercises the kept second normal value. */
template <class State> SEQUENCE_QUALIFIERS void common_sequence(State *s, struct word_sink *out) {
  for (int i = 0; i < 4; ++i) {
    put_word(out, curand(s), WORD_EXACT);
  }
  put_float(out, curand_uniform(s), WORD_EXACT);
  put_float(out, curand_uniform(s), WORD_EXACT);
  put_double(out, curand_uniform_double(s), 1);
  for (int i = 0; i < 3; ++i) {
    put_float(out, curand_normal(s), WORD_FLOAT_CLOSE);
  }
  for (int i = 0; i < 3; ++i) {
    put_double(out, curand_normal_double(s), 0);
  }
  float2 pair = curand_normal2(s);
  put_float(out, pair.x, WORD_FLOAT_CLOSE);
  put_float(out, pair.y, WORD_FLOAT_CLOSE);
  for (int i = 0; i < 3; ++i) {
    put_float(out, curand_log_normal(s, 0.5f, 0.25f), WORD_FLOAT_CLOSE);
  }
  put_float(out, curand_normal(s), WORD_FLOAT_CLOSE);
  put_double(out, curand_log_normal_double(s, 0.5, 0.25), 0);
  double2 pair_double = curand_normal2_double(s);
  put_double(out, pair_double.x, 0);
  put_double(out, pair_double.y, 0);
  float2 log_pair = curand_log_normal2(s, -1.0f, 0.5f);
  put_float(out, log_pair.x, WORD_FLOAT_CLOSE);
  put_float(out, log_pair.y, WORD_FLOAT_CLOSE);
  put_word(out, curand_poisson(s, 3.5), WORD_EXACT);
  put_word(out, curand_poisson(s, 20.0), WORD_EXACT);
  put_word(out, curand_poisson(s, 5000.0), WORD_COUNT_CLOSE);
  put_word(out, curand(s), WORD_EXACT);
  skipahead(1000ull, s);
  put_word(out, curand(s), WORD_EXACT);
  skipahead(0x123456789abull, s);
  put_word(out, curand(s), WORD_EXACT);
  skipahead_sequence(3ull, s);
  put_word(out, curand(s), WORD_EXACT);
  put_word(out, curand(s), WORD_EXACT);
}

/* Calls only Philox4_32_10 has. */
SEQUENCE_QUALIFIERS inline void philox_sequence(curandStatePhilox4_32_10_t *s,
                                                struct word_sink *out) {
  common_sequence(s, out);
  for (int i = 0; i < 3; ++i) {
    /* Four-wide calls from each position within a block of four outputs. */
    uint4 bits = curand4(s);
    put_word(out, bits.x, WORD_EXACT);
    put_word(out, bits.y, WORD_EXACT);
    put_word(out, bits.z, WORD_EXACT);
    put_word(out, bits.w, WORD_EXACT);
    put_word(out, curand(s), WORD_EXACT);
  }
  float4 u4 = curand_uniform4(s);
  put_float(out, u4.x, WORD_EXACT);
  put_float(out, u4.y, WORD_EXACT);
  put_float(out, u4.z, WORD_EXACT);
  put_float(out, u4.w, WORD_EXACT);
  float4 n4 = curand_normal4(s);
  put_float(out, n4.x, WORD_FLOAT_CLOSE);
  put_float(out, n4.y, WORD_FLOAT_CLOSE);
  put_float(out, n4.z, WORD_FLOAT_CLOSE);
  put_float(out, n4.w, WORD_FLOAT_CLOSE);
  double2 u2 = curand_uniform2_double(s);
  put_double(out, u2.x, 1);
  put_double(out, u2.y, 1);
  float4 l4 = curand_log_normal4(s, 0.0f, 1.0f);
  put_float(out, l4.x, WORD_FLOAT_CLOSE);
  put_float(out, l4.w, WORD_FLOAT_CLOSE);
  put_word(out, curand(s), WORD_EXACT);
}

SEQUENCE_QUALIFIERS inline void xorwow_sequence(curandState *s, struct word_sink *out) {
  common_sequence(s, out);
  put_word(out, curand(s), WORD_EXACT);
}

#endif
