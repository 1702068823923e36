/* The simulator's wrapper (see ../../../../README.md): algorithms under par_t first wait for the
   work queued on the default stream (thrust/detail/execution_policy.h says why). */
#pragma once
#pragma GCC system_header
#include <thrust/detail/execution_policy.h>
#include_next <thrust/system/cpp/detail/par.h>

THRUST_NAMESPACE_BEGIN
namespace detail {
CUSIM_THRUST_WAITING_CAST(thrust::system::cpp::detail::par_t)
} // namespace detail
THRUST_NAMESPACE_END
