/* ufunc.h: Numba's @vectorize, the C way.
 *
 * Numba turns one scalar Python function into an element-wise "ufunc" for one CPU core, for all
 * cores or for CUDA, one compiled version per type signature. C has no decorators, but it has two
 * things that together do the same job:
 *
 *   1. a scalar function marked __host__ __device__, which nvcc compiles twice (once for the CPU,
 *      once for the GPU) and which a plain C compiler reads as an ordinary static inline function;
 *   2. a macro that writes the loop around it: UFUNC2_CPU below writes a serial and an OpenMP loop
 *      (instantiated in reference.c, which is compiled with OpenMP), and UFUNC2_CUDA in
 *      exercise.cu writes a grid-stride kernel and its launcher (that one is yours to finish).
 *
 * This header is included by C files (main.c, reference.c) and by the .cu file, so it is C.
 */
#ifndef UFUNC_H
#define UFUNC_H

/* nvcc (and cuda_runtime.h for a C compiler) define CUDA's qualifiers; define them away for any
 * C compiler that has not seen them, so the scalar functions below are plain C there. */
#ifndef __host__
#define __host__
#endif
#ifndef __device__
#define __device__
#endif

/* ---- The scalar functions: written once, used by every loop ---------------------------------- */

/* The Python original's vectorAdd, signature float32(float32, float32). */
static inline __host__ __device__ float add_f32(float a, float b) {
  return a + b;
}

/* The Python original's PyCUDA expression, signature float32(float32, float32). */
static inline __host__ __device__ float original_expression_f32(float a, float b) {
  return (a * 10.0f + 2.0f) * ((b + 2.0f) * 10.0f - 5.0f) * 5.0f;
}

/* The same expression with signature int32(int32, int32). C has no overloading, so a second type
 * needs a second name: that is Numba's "one compiled version per signature", made visible. Signed
 * overflow is undefined behaviour in C and CUDA C: with |a|, |b| <= 2000 every intermediate stays
 * below 2^31 - 1 (see the README), and the driver keeps its inputs in that range. */
static inline __host__ __device__ int original_expression_i32(int a, int b) {
  return (a * 10 + 2) * ((b + 2) * 10 - 5) * 5;
}

/* ---- The CPU loops --------------------------------------------------------------------------- */

/* UFUNC2_CPU(NAME, TYPE, FN) defines two functions that compute out[i] = FN(a[i], b[i]) for
 * 0 <= i < n:
 *   void NAME_serial(const TYPE *a, const TYPE *b, TYPE *out, long long n);  one core
 *   void NAME_openmp(const TYPE *a, const TYPE *b, TYPE *out, long long n);  all cores
 * _Pragma is the form of #pragma that a macro may contain. The file that uses this macro must be
 * compiled with OpenMP (the lesson's CMakeLists.txt asks for it), or the pragma is ignored. */
#define UFUNC2_CPU(NAME, TYPE, FN)                                                                 \
  void NAME##_serial(const TYPE *a, const TYPE *b, TYPE *out, long long n) {                       \
    for (long long i = 0; i < n; ++i) out[i] = FN(a[i], b[i]);                                     \
  }                                                                                                \
  void NAME##_openmp(const TYPE *a, const TYPE *b, TYPE *out, long long n) {                       \
    _Pragma("omp parallel for schedule(static)") for (long long i = 0; i < n; ++i) out[i] =        \
        FN(a[i], b[i]);                                                                            \
  }

#endif /* UFUNC_H */
