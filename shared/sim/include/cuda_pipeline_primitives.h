/* <cuda_pipeline_primitives.h> for CPU simulator builds: the per-thread pipeline of
   __pipeline_memcpy_async, __pipeline_commit and __pipeline_wait_prior (cp.async). A copy is
   issued as a write of its destination by the thread and arrives at the wait that covers its
   batch (runtime/async_copy.cpp), so the memory checker reports a read before that wait. */
#ifndef CUSIM_CUDA_PIPELINE_PRIMITIVES_H
#define CUSIM_CUDA_PIPELINE_PRIMITIVES_H
#pragma GCC system_header
#define _CUDA_PIPELINE_PRIMITIVES_H_

#include <cuda_runtime.h>

#include <cstddef>

#ifdef __cplusplus
namespace cusim {
namespace pipeline_detail {
inline char primitives_key; /* the key of every thread's implicit pipeline */
} // namespace pipeline_detail
} // namespace cusim

/* size_and_align: 4, 8 or 16 bytes, both pointers aligned to it; the last zfill bytes of the
   destination are set to zero instead of copied. */
__attribute__((always_inline)) inline void
__pipeline_memcpy_async(void *dst, const void *src, size_t size_and_align, size_t zfill = 0,
                        const char *cusim_file = __builtin_FILE(),
                        int cusim_line = __builtin_LINE()) {
  if ((size_and_align != 4 && size_and_align != 8 && size_and_align != 16) ||
      zfill > size_and_align || (((uintptr_t)dst | (uintptr_t)src) & (size_and_align - 1)))
    ::cusim::dev::misuse("__pipeline_memcpy_async: the size must be 4, 8 or 16 bytes, both "
                         "pointers aligned to it, and zfill at most the size",
                         cusim_file, cusim_line);
  ::cusim::dev::async_copy(&::cusim::pipeline_detail::primitives_key,
                           *::cusim::dev::async_counter(0), dst, src, size_and_align - zfill, zfill,
                           cusim_file, cusim_line);
}
__attribute__((always_inline)) inline void __pipeline_commit() {
  ++*::cusim::dev::async_counter(0);
}
/* Waits until at most `prior` of the thread's committed batches are in flight. */
__attribute__((always_inline)) inline void __pipeline_wait_prior(size_t prior) {
  unsigned long long head = *::cusim::dev::async_counter(0);
  ::cusim::dev::async_wait(&::cusim::pipeline_detail::primitives_key,
                           head > prior ? head - prior : 0);
}
#else
#error "cusim: <cuda_pipeline_primitives.h> is simulated for CUDA C++ (.cu) sources only"
#endif

#endif
