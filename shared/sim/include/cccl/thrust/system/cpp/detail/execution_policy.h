/* The simulator's wrapper (see ../../../../README.md): algorithms under tag first wait for the
   work queued on the default stream (thrust/detail/execution_policy.h says why). */
#pragma once
#pragma GCC system_header
#include <thrust/detail/execution_policy.h>
#include_next <thrust/system/cpp/detail/execution_policy.h>

THRUST_NAMESPACE_BEGIN
namespace detail {
CUSIM_THRUST_WAITING_CAST(thrust::system::cpp::detail::tag)
} // namespace detail
THRUST_NAMESPACE_END

/* Under nvcc, Thrust's CUDA system brings thrust::system_error into every algorithm's header, and
   programs catch it without including it: so here too. */
#include <thrust/system/system_error.h>
