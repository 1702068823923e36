/* cuRAND's common declarations for CPU simulator builds (shared/sim).
 *
 * The simulator provides cuRAND's device API (curand_kernel.h). This header carries what both
 * APIs share: the status codes, the generator kinds and the ordering enums, with the values the
 * toolkit gives them, so code that names them compiles. The host generator API
 * (curandCreateGenerator, curandGenerateUniform, ...) is not simulated: calling it is a compile
 * error that says so. Write the random numbers in a kernel with curand_kernel.h instead. */
#ifndef CUSIM_CURAND_H
#define CUSIM_CURAND_H
/* The toolkit's own guard name: programs test it (helper_cuda.h does). */
#define CURAND_H_

#include <stddef.h>

#define CURAND_VER_MAJOR 10
#define CURAND_VER_MINOR 4
#define CURAND_VER_PATCH 0
#define CURAND_VERSION (CURAND_VER_MAJOR * 1000 + CURAND_VER_MINOR * 100 + CURAND_VER_PATCH)

#ifdef __cplusplus
extern "C" {
#endif

typedef enum curandStatus {
  CURAND_STATUS_SUCCESS = 0,
  CURAND_STATUS_VERSION_MISMATCH = 100,
  CURAND_STATUS_NOT_INITIALIZED = 101,
  CURAND_STATUS_ALLOCATION_FAILED = 102,
  CURAND_STATUS_TYPE_ERROR = 103,
  CURAND_STATUS_OUT_OF_RANGE = 104,
  CURAND_STATUS_LENGTH_NOT_MULTIPLE = 105,
  CURAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106,
  CURAND_STATUS_LAUNCH_FAILURE = 201,
  CURAND_STATUS_PREEXISTING_FAILURE = 202,
  CURAND_STATUS_INITIALIZATION_FAILED = 203,
  CURAND_STATUS_ARCH_MISMATCH = 204,
  CURAND_STATUS_INTERNAL_ERROR = 999
} curandStatus_t;

typedef enum curandRngType {
  CURAND_RNG_TEST = 0,
  CURAND_RNG_PSEUDO_DEFAULT = 100,
  CURAND_RNG_PSEUDO_XORWOW = 101,
  CURAND_RNG_PSEUDO_MRG32K3A = 121,
  CURAND_RNG_PSEUDO_MTGP32 = 141,
  CURAND_RNG_PSEUDO_MT19937 = 142,
  CURAND_RNG_PSEUDO_PHILOX4_32_10 = 161,
  CURAND_RNG_QUASI_DEFAULT = 200,
  CURAND_RNG_QUASI_SOBOL32 = 201,
  CURAND_RNG_QUASI_SCRAMBLED_SOBOL32 = 202,
  CURAND_RNG_QUASI_SOBOL64 = 203,
  CURAND_RNG_QUASI_SCRAMBLED_SOBOL64 = 204
} curandRngType_t;

typedef enum curandOrdering {
  CURAND_ORDERING_PSEUDO_BEST = 100,
  CURAND_ORDERING_PSEUDO_DEFAULT = 101,
  CURAND_ORDERING_PSEUDO_SEEDED = 102,
  CURAND_ORDERING_PSEUDO_LEGACY = 103,
  CURAND_ORDERING_PSEUDO_DYNAMIC = 104,
  CURAND_ORDERING_QUASI_DEFAULT = 201
} curandOrdering_t;

typedef enum curandDirectionVectorSet {
  CURAND_DIRECTION_VECTORS_32_JOEKUO6 = 101,
  CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6 = 102,
  CURAND_DIRECTION_VECTORS_64_JOEKUO6 = 103,
  CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6 = 104
} curandDirectionVectorSet_t;

typedef unsigned int curandDirectionVectors32_t[32];
typedef unsigned long long curandDirectionVectors64_t[64];

typedef struct curandGenerator_st *curandGenerator_t;

/* The host generator API is not part of the simulator. Declaring the common entry points with a
 * diagnostic turns a call into a one-line compile error instead of an unresolved symbol. */
#if defined(__clang__)
#define CUSIM_CURAND_HOST_API                                                                      \
  __attribute__((unavailable("the CPU simulator provides cuRAND's device API only "                \
                             "(curand_kernel.h); generate the numbers in a kernel")))
#elif defined(__GNUC__)
#define CUSIM_CURAND_HOST_API                                                                      \
  __attribute__((error("the CPU simulator provides cuRAND's device API only "                      \
                       "(curand_kernel.h); generate the numbers in a kernel")))
#else
#define CUSIM_CURAND_HOST_API
#endif

CUSIM_CURAND_HOST_API curandStatus_t curandCreateGenerator(curandGenerator_t *generator,
                                                           curandRngType_t rng_type);
CUSIM_CURAND_HOST_API curandStatus_t curandCreateGeneratorHost(curandGenerator_t *generator,
                                                               curandRngType_t rng_type);
CUSIM_CURAND_HOST_API curandStatus_t curandDestroyGenerator(curandGenerator_t generator);
CUSIM_CURAND_HOST_API curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator,
                                                                        unsigned long long seed);
CUSIM_CURAND_HOST_API curandStatus_t curandSetGeneratorOffset(curandGenerator_t generator,
                                                              unsigned long long offset);
CUSIM_CURAND_HOST_API curandStatus_t curandGenerate(curandGenerator_t generator,
                                                    unsigned int *output_ptr, size_t num);
CUSIM_CURAND_HOST_API curandStatus_t curandGenerateUniform(curandGenerator_t generator,
                                                           float *output_ptr, size_t num);
CUSIM_CURAND_HOST_API curandStatus_t curandGenerateUniformDouble(curandGenerator_t generator,
                                                                 double *output_ptr, size_t num);
CUSIM_CURAND_HOST_API curandStatus_t curandGenerateNormal(curandGenerator_t generator,
                                                          float *output_ptr, size_t n, float mean,
                                                          float stddev);
CUSIM_CURAND_HOST_API curandStatus_t curandGenerateNormalDouble(curandGenerator_t generator,
                                                                double *output_ptr, size_t n,
                                                                double mean, double stddev);

#ifdef __cplusplus
}
#endif

#endif /* CUSIM_CURAND_H */
