/* The simulator's wrapper (see ../../../README.md): the C++ system's memory resources, which a
   device_vector (and a universal_vector) allocates through, take memory from the simulator's
   cudaMalloc (cudaMallocManaged), so thrust::raw_pointer_cast(v.data()) is device memory that a
   program's own kernels, cudaMemcpy and the memory checker know. The two resources' allocation
   members are specialized here, before anything uses them. */
#pragma once
#pragma GCC system_header
#include <cuda_runtime_api.h>
#include <new>
#include_next <thrust/system/cpp/memory_resource.h>

namespace cusim {
namespace detail {
inline void *thrust_device_allocate(std::size_t bytes, bool managed) {
  void *p = nullptr;
  cudaError_t e =
      managed ? cudaMallocManaged(&p, bytes, cudaMemAttachGlobal) : cudaMalloc(&p, bytes);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    throw std::bad_alloc();
  }
  return p;
}
} // namespace detail
} // namespace cusim

THRUST_NAMESPACE_BEGIN
namespace mr {
template <>
inline thrust::cpp::pointer<void>
fancy_pointer_resource<new_delete_resource, thrust::cpp::pointer<void>>::do_allocate(
    std::size_t bytes, std::size_t) {
  return thrust::cpp::pointer<void>(::cusim::detail::thrust_device_allocate(bytes, false));
}
template <>
inline void fancy_pointer_resource<new_delete_resource, thrust::cpp::pointer<void>>::do_deallocate(
    thrust::cpp::pointer<void> p, std::size_t, std::size_t) {
  cudaFree(p.get());
}
template <>
inline thrust::cpp::universal_pointer<void>
fancy_pointer_resource<new_delete_resource, thrust::cpp::universal_pointer<void>>::do_allocate(
    std::size_t bytes, std::size_t) {
  return thrust::cpp::universal_pointer<void>(::cusim::detail::thrust_device_allocate(bytes, true));
}
template <>
inline void
fancy_pointer_resource<new_delete_resource, thrust::cpp::universal_pointer<void>>::do_deallocate(
    thrust::cpp::universal_pointer<void> p, std::size_t, std::size_t) {
  cudaFree(p.get());
}
} // namespace mr
THRUST_NAMESPACE_END
