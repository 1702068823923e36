/* The simulator's wrapper (see ../../README.md). Every Thrust algorithm turns its execution
   policy into its own type with thrust::detail::derived_cast before it runs; for the C++ system's
   two policies the cast first waits for the work queued on the default stream
   (CUSIM_THRUST_WAITING_CAST, used where each is defined: system/cpp/detail/execution_policy.h
   for cpp::tag, what an algorithm on device_vector iterators picks, and par.h for par_t, which
   thrust::device, thrust::host and thrust::cpp::par are). On a GPU such an algorithm is work on
   that stream, after the kernels launched before it; here it runs on the host at once, so those
   kernels must run first. */
#pragma once
#pragma GCC system_header
#include_next <thrust/detail/execution_policy.h>

namespace cusim {
namespace detail {
void thrust_wait();
} // namespace detail
} // namespace cusim

/* An explicit specialization of derived_cast for POLICY (in namespace thrust::detail). */
#define CUSIM_THRUST_WAITING_CAST(POLICY)                                                          \
  template <> inline POLICY &derived_cast<POLICY>(execution_policy_base<POLICY> & x) {             \
    ::cusim::detail::thrust_wait();                                                                \
    return static_cast<POLICY &>(x);                                                               \
  }                                                                                                \
  template <> inline const POLICY &derived_cast<POLICY>(const execution_policy_base<POLICY> &x) {  \
    ::cusim::detail::thrust_wait();                                                                \
    return static_cast<const POLICY &>(x);                                                         \
  }

THRUST_NAMESPACE_BEGIN
/* thrust::cuda::par, par_nosync and their .on(stream): Thrust's CUDA system, which the simulator
   does not have. Naming one stops the build with one line (an algorithm's cast of it). */
namespace cuda {
template <int Unused>
struct cusim_not_simulated_policy
    : thrust::detail::execution_policy_base<cusim_not_simulated_policy<Unused>> {
  template <typename... Any> cusim_not_simulated_policy on(Any &&...) const { return *this; }
};
inline constexpr cusim_not_simulated_policy<0> par{};
inline constexpr cusim_not_simulated_policy<0> par_nosync{};
} // namespace cuda
namespace detail {
template <int Unused>
constexpr thrust::cuda::cusim_not_simulated_policy<Unused> &
derived_cast(execution_policy_base<thrust::cuda::cusim_not_simulated_policy<Unused>> &x) {
  static_assert(Unused != 0, "cusim: thrust::cuda::par and par_nosync (Thrust's CUDA system, "
                             "streams included) are not simulated; use thrust::device");
  return static_cast<thrust::cuda::cusim_not_simulated_policy<Unused> &>(x);
}
} // namespace detail
THRUST_NAMESPACE_END
