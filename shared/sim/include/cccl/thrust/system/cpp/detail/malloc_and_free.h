/* The simulator's wrapper (see ../../../../README.md): thrust::malloc and thrust::free on the C++
   system, which is Thrust's device system here (device_malloc, device_free, an algorithm's
   temporary storage), take device memory from the simulator's cudaMalloc, so a kernel may be
   handed it. Found by argument-dependent lookup, and preferred to the sequential system's
   std::malloc because the C++ system's policy is the nearer base class. */
#pragma once
#pragma GCC system_header
#include <cuda_runtime_api.h>
#include <new>
#include <thrust/detail/pointer.h>
#include <thrust/system/cpp/detail/execution_policy.h>
#include_next <thrust/system/cpp/detail/malloc_and_free.h>

THRUST_NAMESPACE_BEGIN
namespace system {
namespace cpp {
namespace detail {

template <typename DerivedPolicy>
inline void *malloc(execution_policy<DerivedPolicy> &, std::size_t n) {
  void *p = nullptr;
  if (cudaMalloc(&p, n) != cudaSuccess) {
    (void)cudaGetLastError();
    throw std::bad_alloc();
  }
  return p;
}

template <typename DerivedPolicy, typename Pointer>
inline void free(execution_policy<DerivedPolicy> &, Pointer ptr) {
  cudaFree(thrust::raw_pointer_cast(ptr));
}

} // namespace detail
} // namespace cpp
} // namespace system
THRUST_NAMESPACE_END
