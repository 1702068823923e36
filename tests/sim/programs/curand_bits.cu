// cuRAND device API against NVIDIA's own numbers. One thread per case runs a fixed sequence of
// calls (curand/curand_sequence.h) with XORWOW and with Philox4_32_10 states, and the host
// compares every result with curand/curand_reference.h, which the toolkit's own curand_kernel.h
// produced (see curand/make_curand_reference.cu). Raw bits and uniforms must match exactly; the
// normal and log-normal values, which a GPU computes with approximate sine and cosine, must be
// close (on the simulator they match exactly too, and the count of exact ones is printed).
#include <cuda_runtime.h>
#include <curand_kernel.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "curand/curand_sequence.h"

#include "curand/curand_reference.h"

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));                    \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

struct results {
  unsigned int words[2][SEQUENCE_CASES][SEQUENCE_MAX_WORDS];
  unsigned char kinds[2][SEQUENCE_CASES][SEQUENCE_MAX_WORDS];
  int counts[2][SEQUENCE_CASES];
};

__global__ void run_sequences(struct results *out) {
  const struct sequence_case cases[SEQUENCE_CASES] = SEQUENCE_CASE_LIST;
  int c = threadIdx.x;
  if (c >= SEQUENCE_CASES) {
    return;
  }
  curandState xorwow;
  curand_init(cases[c].seed, cases[c].subsequence, cases[c].offset, &xorwow);
  struct word_sink sink = {out->words[0][c], out->kinds[0][c], 0};
  xorwow_sequence(&xorwow, &sink);
  out->counts[0][c] = sink.count;

  curandStatePhilox4_32_10_t philox;
  curand_init(cases[c].seed, cases[c].subsequence, cases[c].offset, &philox);
  struct word_sink philox_sink = {out->words[1][c], out->kinds[1][c], 0};
  philox_sequence(&philox, &philox_sink);
  out->counts[1][c] = philox_sink.count;
}

static float word_to_float(unsigned int w) {
  float f;
  memcpy(&f, &w, sizeof f);
  return f;
}

static double words_to_double(unsigned int high, unsigned int low) {
  unsigned long long bits = ((unsigned long long)high << 32) | low;
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}

// Compares one generator's words for one case; returns the number of mismatches.
static int compare(const char *generator, int c, const unsigned int *got,
                   const unsigned char *kinds, const unsigned int *expected, int count,
                   int *approximate, int *approximate_exact) {
  int wrong = 0;
  for (int i = 0; i < count; ++i) {
    int ok = got[i] == expected[i];
    if (kinds[i] != WORD_EXACT) {
      ++*approximate;
      *approximate_exact += ok;
    }
    if (!ok && kinds[i] == WORD_FLOAT_CLOSE) {
      float a = word_to_float(got[i]), b = word_to_float(expected[i]);
      ok = fabsf(a - b) <= 1e-4f * (1.0f + fabsf(b));
    } else if (!ok && kinds[i] == WORD_DOUBLE_CLOSE_HIGH && i + 1 < count) {
      double a = words_to_double(got[i], got[i + 1]);
      double b = words_to_double(expected[i], expected[i + 1]);
      ok = fabs(a - b) <= 1e-9 * (1.0 + fabs(b));
    } else if (!ok && kinds[i] == WORD_DOUBLE_CLOSE_LOW && i > 0) {
      double a = words_to_double(got[i - 1], got[i]);
      double b = words_to_double(expected[i - 1], expected[i]);
      ok = fabs(a - b) <= 1e-9 * (1.0 + fabs(b));
    } else if (!ok && kinds[i] == WORD_COUNT_CLOSE) {
      ok = got[i] + 1 == expected[i] || got[i] == expected[i] + 1;
    }
    if (!ok) {
      if (wrong < 3) {
        printf("%s case %d word %d: 0x%08x, expected 0x%08x\n", generator, c, i, got[i],
               expected[i]);
      }
      ++wrong;
    }
  }
  return wrong;
}

int main(void) {
  struct results *d_results;
  CHECK(cudaMalloc(&d_results, sizeof(struct results)));
  run_sequences<<<1, SEQUENCE_CASES>>>(d_results);
  CHECK(cudaGetLastError());
  static struct results got;
  CHECK(cudaMemcpy(&got, d_results, sizeof got, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_results));

  int wrong = 0, approximate = 0, approximate_exact = 0;
  for (int c = 0; c < SEQUENCE_CASES; ++c) {
    if (got.counts[0][c] != XORWOW_REFERENCE_WORDS || got.counts[1][c] != PHILOX_REFERENCE_WORDS) {
      printf("case %d: %d and %d words, expected %d and %d\n", c, got.counts[0][c],
             got.counts[1][c], XORWOW_REFERENCE_WORDS, PHILOX_REFERENCE_WORDS);
      ++wrong;
      continue;
    }
    wrong += compare("XORWOW", c, got.words[0][c], got.kinds[0][c], xorwow_reference[c],
                     XORWOW_REFERENCE_WORDS, &approximate, &approximate_exact);
    wrong += compare("Philox4_32_10", c, got.words[1][c], got.kinds[1][c], philox_reference[c],
                     PHILOX_REFERENCE_WORDS, &approximate, &approximate_exact);
  }
  printf("normal and log-normal words identical to the toolkit's host results: %d of %d\n",
         approximate_exact, approximate);
  if (wrong != 0) {
    printf("FAIL curand_bits: %d words differ\n", wrong);
    return 1;
  }
  printf("PASS curand_bits\n");
  return 0;
}
