// cuRAND's host API (curand.h): generators that fill device memory in stream order, or host
// memory at once (curandCreateGeneratorHost).
//
// Every pseudo-random kind is Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as
// 1, 2, 3", 2011), the device API's (curand_kernel.h), counted by the generator's offset in
// 32-bit words. CURAND_RNG_PSEUDO_PHILOX4_32_10 is cuRAND's own sequence, laid out as its host
// API lays it out (legacy ordering, the default): 65536 subsequences side by side, keyed by the
// seed; the words 4g .. 4g+3 are curand4() number g / 65536 of subsequence g % 65536. Raw bits
// and uniform floats are NVIDIA's numbers (an H200 gave the same first eight floats for seed 42);
// uniform doubles take two words each with cuRAND's formula; normals are Box-Muller in pairs as
// the device API computes them (a GPU's sine and cosine differ in the last bits). The other kinds
// (XORWOW, the default, MRG32k3a, MTGP32, MT19937) are that Philox with the kind in the key:
// reproducible, with cuRAND's distributions, but not NVIDIA's sequences. A new seed keeps the
// offset, as cuRAND's does (seen on an H200). Quasi-random generators are not simulated and are
// refused with a message.
#include "cuda_runtime.h"
#include "curand.h"
#include "curand_kernel.h"
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

// The words [first, first + count) of a generator's sequence: word w is lane w % 4 of counter
// value (w / 4) / 65536 of subsequence (w / 4) % 65536, under the generator's key.
constexpr uint64_t subsequences = 65536;
struct word_stream {
  uint2 key;
  uint64_t next;
  uint4 buf;
  uint64_t buf_group = ~(uint64_t)0;
  uint32_t get() {
    uint64_t group = next >> 2;
    if (group != buf_group) {
      uint64_t step = group / subsequences, subsequence = group % subsequences;
      uint4 counter = {(unsigned)step, (unsigned)(step >> 32), (unsigned)subsequence,
                       (unsigned)(subsequence >> 32)};
      buf = cusim::rand::philox4x32_10(counter, key);
      buf_group = group;
    }
    unsigned lane = next++ & 3;
    return lane == 0 ? buf.x : lane == 1 ? buf.y : lane == 2 ? buf.z : buf.w;
  }
};

word_stream words_of(unsigned long long seed, curandRngType_t type, unsigned long long first) {
  word_stream w;
  w.key.x = (uint32_t)seed;
  w.key.y = (uint32_t)(seed >> 32);
  // Philox's key is the seed, as cuRAND's. The other kinds put the kind in the key, so that an
  // XORWOW and a Philox generator with one seed differ.
  if (type != CURAND_RNG_PSEUDO_PHILOX4_32_10) w.key.x ^= (uint32_t)type * 0x85EBCA6Bu;
  w.next = first;
  return w;
}

using cusim::rand::box_muller;
using cusim::rand::box_muller_double;
// (0, 1]: x * 2^-32 + 2^-33, as cuRAND (rounds to 1.0f at the top).
inline float uniform_float(uint32_t x) {
  return cusim::rand::uniform_from_bits(x);
}
// (0, 1): 53 bits, the first word the low 32, the second the high 21, as cuRAND.
inline double uniform_double(uint32_t x, uint32_t y) {
  return cusim::rand::uniform_double_from_bits(x, y);
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
    for (size_t i = 0; i + 1 < n; i += 2) { // Box-Muller: two normals from two words
      uint32_t x = w.get();
      float2 z = box_muller(x, w.get());
      float a = (float)mean + (float)stddev * z.x;
      float b = (float)mean + (float)stddev * z.y;
      float *o = static_cast<float *>(out);
      o[i] = kind == output::lognormal ? std::exp(a) : a;
      o[i + 1] = kind == output::lognormal ? std::exp(b) : b;
    }
    break;
  case output::normal_double:
  case output::lognormal_double:
    for (size_t i = 0; i + 1 < n; i += 2) { // two normals from four words
      uint32_t x0 = w.get(), x1 = w.get(), y0 = w.get();
      double2 z = box_muller_double(x0, x1, y0, w.get());
      double a = mean + stddev * z.x;
      double b = mean + stddev * z.y;
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
  // The offset stays: the next numbers of the new seed's sequence, as cuRAND's (an H200: seen).
  // curandSetGeneratorOffset(generator, 0) starts the sequence again.
  generator->seed = seed;
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
