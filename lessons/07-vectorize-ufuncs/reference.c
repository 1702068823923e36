/* Lesson 07: the CPU side of the ufuncs. Each UFUNC2_CPU line below writes two loops (one core and
 * all cores) around a scalar function from ufunc.h; this file is compiled with OpenMP, which is
 * why the CPU loops are made here and not in the .cu file. */
#include "lesson.h"

#include <omp.h>

UFUNC2_CPU(add_f32, float, add_f32)
UFUNC2_CPU(original_expression_f32, float, original_expression_f32)
UFUNC2_CPU(original_expression_i32, int, original_expression_i32)

int cpu_set_threads(int threads) {
  if (threads > 0) omp_set_num_threads(threads);
  return omp_get_max_threads();
}
