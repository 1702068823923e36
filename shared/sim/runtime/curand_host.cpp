// cuRAND's host API (curand.h): generators that fill device memory in stream order, or host
// memory at once (curandCreateGeneratorHost).
//
// Every pseudo-random kind is Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as
// 1, 2, 3", 2011), keyed by the seed and the kind, counted by the generator's offset: the numbers
// are reproducible and have the distributions cuRAND documents (uniform in (0, 1], normal by
// Box-Muller in pairs), but they are not NVIDIA's own sequence. Quasi-random generators are not
// simulated and are refused with a message.
#include "cuda_runtime.h"
#include "curand.h"
#include "internal.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <set>

struct curandGenerator_st {
  curandRngType_t type = CURAND_RNG_PSEUDO_DEFAULT;
  bool host = false;             // curandCreateGeneratorHost: writes host memory, synchronously
  unsigned long long seed = 0;   // cuRAND's default seed
  unsigned long long offset = 0; // 32-bit words used so far
  cudaStream_t stream = nullptr;
};

namespace cusim {
namespace rt {
namespace {

std::mutex generators_mu;
std::set<curandGenerator_t> &generators() {
  static std::set<curandGenerator_t> *s = new std::set<curandGenerator_t>;
  return *s;
}

bool live(curandGenerator_t g) {
  std::lock_guard<std::mutex> lock(generators_mu);
  return g != nullptr && generators().count(g) != 0;
}

// One Philox4x32-10 block: the four words of counter `block` under key (k0, k1).
void philox(uint64_t block, uint32_t k0, uint32_t k1, uint32_t out[4]) {
  uint32_t c0 = (uint32_t)block, c1 = (uint32_t)(block >> 32), c2 = 0, c3 = 0;
  for (int round = 0; round < 10; ++round) {
    uint64_t p0 = (uint64_t)0xD2511F53u * c0;
    uint64_t p1 = (uint64_t)0xCD9E8D57u * c2;
    uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0;
    uint32_t n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
    c1 = (uint32_t)p1;
    c3 = (uint32_t)p0;
    c0 = n0;
    c2 = n2;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
}

// The words [first, first + count) of a generator's sequence.
struct word_stream {
  uint32_t k0, k1;
  uint64_t next;
  uint32_t buf[4];
  uint64_t buf_block = ~(uint64_t)0;
  uint32_t get() {
    uint64_t block = next >> 2;
    if (block != buf_block) {
      philox(block, k0, k1, buf);
      buf_block = block;
    }
    return buf[next++ & 3];
  }
};

word_stream words_of(unsigned long long seed, curandRngType_t type, unsigned long long first) {
  word_stream w;
  // The kind is part of the key, so XORWOW and Philox generators with one seed differ.
  w.k0 = (uint32_t)seed ^ ((uint32_t)type * 0x85EBCA6Bu);
  w.k1 = (uint32_t)(seed >> 32);
  w.next = first;
  return w;
}

const float two_pow_minus_32f = 2.3283064e-10f; // 2^-32

// (0, 1]: as cuRAND, x * 2^-32 + 2^-33 (rounds to 1.0f at the top).
inline float uniform_float(uint32_t x) {
  return x * two_pow_minus_32f + two_pow_minus_32f / 2.0f;
}
// (0, 1) with 53 random bits from two words.
inline double uniform_double(uint32_t x, uint32_t y) {
  uint64_t z = (uint64_t)x ^ ((uint64_t)y << 21);
  z &= ((uint64_t)1 << 53) - 1;
  const double inv = 1.0 / 9007199254740992.0; // 2^-53
  return z * inv + inv / 2.0;
}

enum class output {
  bits,
  uniform,
  uniform_double,
  normal,
  normal_double,
  lognormal,
  lognormal_double
};

size_t element_size(output kind) {
  switch (kind) {
  case output::bits:
    return sizeof(unsigned int);
  case output::uniform:
  case output::normal:
  case output::lognormal:
    return sizeof(float);
  default:
    return sizeof(double);
  }
}

// 32-bit words one call uses: doubles take two per value.
unsigned long long words_used(output kind, size_t n) {
  return element_size(kind) == sizeof(double) && kind != output::bits ? 2ull * n : n;
}

void fill(void *out, size_t n, output kind, double mean, double stddev, word_stream w) {
  const double two_pi = 6.283185307179586;
  switch (kind) {
  case output::bits:
    for (size_t i = 0; i < n; ++i) static_cast<unsigned int *>(out)[i] = w.get();
    break;
  case output::uniform:
    for (size_t i = 0; i < n; ++i) static_cast<float *>(out)[i] = uniform_float(w.get());
    break;
  case output::uniform_double:
    for (size_t i = 0; i < n; ++i) {
      uint32_t x = w.get();
      static_cast<double *>(out)[i] = uniform_double(x, w.get());
    }
    break;
  case output::normal:
  case output::lognormal:
    for (size_t i = 0; i + 1 < n; i += 2) { // Box-Muller: two normals from two uniforms
      float u = uniform_float(w.get()), v = uniform_float(w.get());
      float r = std::sqrt(-2.0f * std::log(u));
      float a = (float)mean + (float)stddev * r * std::sin((float)two_pi * v);
      float b = (float)mean + (float)stddev * r * std::cos((float)two_pi * v);
      float *o = static_cast<float *>(out);
      o[i] = kind == output::lognormal ? std::exp(a) : a;
      o[i + 1] = kind == output::lognormal ? std::exp(b) : b;
    }
    break;
  case output::normal_double:
  case output::lognormal_double:
    for (size_t i = 0; i + 1 < n; i += 2) {
      uint32_t x = w.get(), y = w.get(), z = w.get();
      double u = uniform_double(x, y), v = uniform_double(z, w.get());
      double r = std::sqrt(-2.0 * std::log(u));
      double a = mean + stddev * r * std::sin(two_pi * v);
      double b = mean + stddev * r * std::cos(two_pi * v);
      double *o = static_cast<double *>(out);
      o[i] = kind == output::lognormal_double ? std::exp(a) : a;
      o[i + 1] = kind == output::lognormal_double ? std::exp(b) : b;
    }
    break;
  }
}

bool is_device_kind(mem_kind k) {
  return k == mem_kind::device || k == mem_kind::pool;
}

// Where a generator may write: device-accessible memory for a device generator (device, managed,
// pinned, registered memory, a __device__ variable), host memory for a host generator. The
// simulator's device memory is host memory, so it checks what a GPU would fault on.
bool output_ok(const char *api, curandGenerator_t g, const void *p, size_t bytes) {
  lookup l = find(p);
  if (g->host) {
    if (l.live && is_device_kind(l.kind)) {
      report("%s: output %p is %s memory, but the generator is a host generator "
             "(curandCreateGeneratorHost) and writes host memory",
             api, p, kind_name(l.kind));
      return false;
    }
  } else if (!l.live) {
    report("%s: output %p is %s, not device memory; a generator from curandCreateGenerator "
           "writes device memory (curandCreateGeneratorHost writes host memory)",
           api, p, l.freed ? "freed device memory" : "host memory");
    return false;
  }
  if (l.live && (uintptr_t)p + bytes > l.base + l.size) {
    report("%s: %zu bytes at %p run past the end of its allocation of %zu bytes", api, bytes, p,
           l.size);
    return false;
  }
  return true;
}

curandStatus_t generate(const char *api, curandGenerator_t g, void *out, size_t n, output kind,
                        double mean = 0.0, double stddev = 1.0) {
  if (!live(g)) return CURAND_STATUS_NOT_INITIALIZED;
  if ((kind == output::normal || kind == output::normal_double || kind == output::lognormal ||
       kind == output::lognormal_double) &&
      n % 2 != 0) {
    return CURAND_STATUS_LENGTH_NOT_MULTIPLE; // normals come in pairs, as on a GPU
  }
  if (!g->host && sticky() != cudaSuccess) return CURAND_STATUS_PREEXISTING_FAILURE;
  if (n == 0) return CURAND_STATUS_SUCCESS;
  if (!g->host && !valid_stream(g->stream)) {
    report("%s: the generator's stream %p (curandSetStream) is not a live stream", api,
           (void *)g->stream);
    return CURAND_STATUS_LAUNCH_FAILURE;
  }
  size_t bytes = n * element_size(kind);
  if (out == nullptr || !output_ok(api, g, out, bytes)) return CURAND_STATUS_LAUNCH_FAILURE;
  word_stream w = words_of(g->seed, g->type, g->offset);
  g->offset += words_used(kind, n);
  if (g->host) {
    fill(out, n, kind, mean, stddev, w);
  } else {
    enqueue(g->stream, [=] { fill(out, n, kind, mean, stddev, w); }, api,
            {mem_access{out, bytes, true}});
  }
  return CURAND_STATUS_SUCCESS;
}

bool pseudo(curandRngType_t t) {
  return t == CURAND_RNG_PSEUDO_DEFAULT || t == CURAND_RNG_PSEUDO_XORWOW ||
         t == CURAND_RNG_PSEUDO_MRG32K3A || t == CURAND_RNG_PSEUDO_MTGP32 ||
         t == CURAND_RNG_PSEUDO_MT19937 || t == CURAND_RNG_PSEUDO_PHILOX4_32_10;
}

curandStatus_t create(curandGenerator_t *generator, curandRngType_t type, bool host) {
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  if (!pseudo(type)) {
    if (type >= CURAND_RNG_QUASI_DEFAULT && type <= CURAND_RNG_QUASI_SCRAMBLED_SOBOL64)
      report("%s: quasi-random generators (Sobol) are not simulated; use a "
             "CURAND_RNG_PSEUDO_* generator",
             host ? "curandCreateGeneratorHost" : "curandCreateGenerator");
    return CURAND_STATUS_TYPE_ERROR;
  }
  curandGenerator_t g = new curandGenerator_st;
  g->type = type;
  g->host = host;
  std::lock_guard<std::mutex> lock(generators_mu);
  generators().insert(g);
  resource_created(resource::curand_generator, g);
  *generator = g;
  return CURAND_STATUS_SUCCESS;
}

} // namespace
} // namespace rt
} // namespace cusim

using cusim::rt::output;

extern "C" {

curandStatus_t curandCreateGenerator(curandGenerator_t *generator, curandRngType_t rng_type) {
  cusim::rt::creation_site here(__builtin_return_address(0));
  return cusim::rt::create(generator, rng_type, false);
}
curandStatus_t curandCreateGeneratorHost(curandGenerator_t *generator, curandRngType_t rng_type) {
  cusim::rt::creation_site here(__builtin_return_address(0));
  return cusim::rt::create(generator, rng_type, true);
}
curandStatus_t curandDestroyGenerator(curandGenerator_t generator) {
  std::lock_guard<std::mutex> lock(cusim::rt::generators_mu);
  if (generator == nullptr || cusim::rt::generators().erase(generator) == 0)
    return CURAND_STATUS_NOT_INITIALIZED;
  cusim::rt::resource_released(generator);
  delete generator; // queued generations hold copies of what they need
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandGetVersion(int *version) {
  if (version == nullptr) return CURAND_STATUS_OUT_OF_RANGE;
  *version = CURAND_VERSION;
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandSetStream(curandGenerator_t generator, cudaStream_t stream) {
  if (!cusim::rt::live(generator)) return CURAND_STATUS_NOT_INITIALIZED;
  generator->stream = stream;
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator,
                                                  unsigned long long seed) {
  if (!cusim::rt::live(generator)) return CURAND_STATUS_NOT_INITIALIZED;
  generator->seed = seed;
  generator->offset = 0; // a new seed restarts the sequence, as cuRAND's does
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandSetGeneratorOffset(curandGenerator_t generator, unsigned long long offset) {
  if (!cusim::rt::live(generator)) return CURAND_STATUS_NOT_INITIALIZED;
  generator->offset = offset;
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandSetGeneratorOrdering(curandGenerator_t generator, curandOrdering_t order) {
  if (!cusim::rt::live(generator)) return CURAND_STATUS_NOT_INITIALIZED;
  if (order < CURAND_ORDERING_PSEUDO_BEST || order > CURAND_ORDERING_PSEUDO_DYNAMIC)
    return CURAND_STATUS_OUT_OF_RANGE;
  return CURAND_STATUS_SUCCESS; // one sequence per seed whatever the ordering
}
curandStatus_t curandSetQuasiRandomGeneratorDimensions(curandGenerator_t generator, unsigned int) {
  if (!cusim::rt::live(generator)) return CURAND_STATUS_NOT_INITIALIZED;
  return CURAND_STATUS_TYPE_ERROR; // only quasi-random generators have dimensions
}
curandStatus_t curandGenerateSeeds(curandGenerator_t generator) {
  if (!cusim::rt::live(generator)) return CURAND_STATUS_NOT_INITIALIZED;
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandGenerate(curandGenerator_t generator, unsigned int *outputPtr, size_t num) {
  return cusim::rt::generate("curandGenerate", generator, outputPtr, num, output::bits);
}
curandStatus_t curandGenerateLongLong(curandGenerator_t generator, unsigned long long *, size_t) {
  if (!cusim::rt::live(generator)) return CURAND_STATUS_NOT_INITIALIZED;
  return CURAND_STATUS_TYPE_ERROR; // 64-bit quasi-random generators only
}
curandStatus_t curandGenerateUniform(curandGenerator_t generator, float *outputPtr, size_t num) {
  return cusim::rt::generate("curandGenerateUniform", generator, outputPtr, num, output::uniform);
}
curandStatus_t curandGenerateUniformDouble(curandGenerator_t generator, double *outputPtr,
                                           size_t num) {
  return cusim::rt::generate("curandGenerateUniformDouble", generator, outputPtr, num,
                             output::uniform_double);
}
curandStatus_t curandGenerateNormal(curandGenerator_t generator, float *outputPtr, size_t n,
                                    float mean, float stddev) {
  return cusim::rt::generate("curandGenerateNormal", generator, outputPtr, n, output::normal, mean,
                             stddev);
}
curandStatus_t curandGenerateNormalDouble(curandGenerator_t generator, double *outputPtr, size_t n,
                                          double mean, double stddev) {
  return cusim::rt::generate("curandGenerateNormalDouble", generator, outputPtr, n,
                             output::normal_double, mean, stddev);
}
curandStatus_t curandGenerateLogNormal(curandGenerator_t generator, float *outputPtr, size_t n,
                                       float mean, float stddev) {
  return cusim::rt::generate("curandGenerateLogNormal", generator, outputPtr, n, output::lognormal,
                             mean, stddev);
}
curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t generator, double *outputPtr,
                                             size_t n, double mean, double stddev) {
  return cusim::rt::generate("curandGenerateLogNormalDouble", generator, outputPtr, n,
                             output::lognormal_double, mean, stddev);
}

} // extern "C"

extern "C" curandStatus_t cusim_curand_generator_stream(curandGenerator_t generator,
                                                        cudaStream_t *stream) {
  if (!cusim::rt::live(generator) || stream == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  *stream = generator->stream;
  return CURAND_STATUS_SUCCESS;
}
