#line 1 "shared.cu"
// __shared__ declarations of every shape the contract covers.
#define BLOCK 16
template <typename T, int N> __global__ void kernel(T *out) {
  typedef float cusim_shared_t_tile[BLOCK][BLOCK + 1]; cusim_shared_t_tile& tile = *::cusim::shared_var<cusim_shared_t_tile>([]{});
  typedef int cusim_shared_t_count; cusim_shared_t_count& count = *::cusim::shared_var<cusim_shared_t_count>([]{});
  typedef T cusim_shared_t_values[N]; cusim_shared_t_values& values = *::cusim::shared_var<cusim_shared_t_values>([]{});
  typedef double cusim_shared_t_sums[32]; cusim_shared_t_sums& sums = *::cusim::shared_var<cusim_shared_t_sums>([]{});
  typedef volatile float cusim_shared_t_warp_sums[32]; cusim_shared_t_warp_sums& warp_sums = *::cusim::shared_var<cusim_shared_t_warp_sums>([]{});
  typedef volatile int cusim_shared_t_flags[2][2][2]; cusim_shared_t_flags& flags = *::cusim::shared_var<cusim_shared_t_flags>([]{});
  typedef __align__(16) float cusim_shared_t_aligned[4]; cusim_shared_t_aligned& aligned = *::cusim::shared_var<cusim_shared_t_aligned>([]{ return alignof(cusim_shared_t_aligned); });
  typedef __align__(8) volatile unsigned char cusim_shared_t_bytes[64]; cusim_shared_t_bytes& bytes = *::cusim::shared_var<cusim_shared_t_bytes>([]{ return alignof(cusim_shared_t_bytes); });
  typedef float cusim_shared_t_after_type[8]; cusim_shared_t_after_type& after_type = *::cusim::shared_var<cusim_shared_t_after_type>([]{});
  typedef int cusim_shared_t_both; cusim_shared_t_both& both = *::cusim::shared_var<cusim_shared_t_both>([]{});
  typedef typename Traits<T>::type cusim_shared_t_traits[4]; cusim_shared_t_traits& traits = *::cusim::shared_var<cusim_shared_t_traits>([]{});
  typedef Pair<int, float> cusim_shared_t_pairs[BLOCK]; cusim_shared_t_pairs& pairs = *::cusim::shared_var<cusim_shared_t_pairs>([]{});
  typedef float * cusim_shared_t_pointer; cusim_shared_t_pointer& pointer = *::cusim::shared_var<cusim_shared_t_pointer>([]{});
  typedef float cusim_shared_t_spread[BLOCK] [2]; cusim_shared_t_spread& spread = *::cusim::shared_var<cusim_shared_t_spread>([]{});

          
  typedef float cusim_shared_t_dynamic[]; ::std::remove_extent_t<cusim_shared_t_dynamic>* const dynamic = (::std::remove_extent_t<cusim_shared_t_dynamic>*)::cusim::shared_dynamic();
  typedef __align__(16) unsigned char cusim_shared_t_smem[]; ::std::remove_extent_t<cusim_shared_t_smem>* const smem = (::std::remove_extent_t<cusim_shared_t_smem>*)::cusim::shared_dynamic();
  typedef T cusim_shared_t_typed[]; ::std::remove_extent_t<cusim_shared_t_typed>* const typed = (::std::remove_extent_t<cusim_shared_t_typed>*)::cusim::shared_dynamic();
  {
    typedef int cusim_shared_t_nested[4]; cusim_shared_t_nested& nested = *::cusim::shared_var<cusim_shared_t_nested>([]{});
  }
  auto lambda = [] { typedef int cusim_shared_t_in_lambda; cusim_shared_t_in_lambda& in_lambda = *::cusim::shared_var<cusim_shared_t_in_lambda>([]{}); };
}
namespace ns {
__device__ void helper() { typedef int cusim_shared_t_in_namespace[2]; cusim_shared_t_in_namespace& in_namespace = *::cusim::shared_var<cusim_shared_t_in_namespace>([]{}); }
}
struct S {
  __device__ void method() { typedef int cusim_shared_t_in_method; cusim_shared_t_in_method& in_method = *::cusim::shared_var<cusim_shared_t_in_method>([]{}); }
};
__global__ void several() {
  typedef float cusim_shared_t_a[16]; cusim_shared_t_a& a = *::cusim::shared_var<cusim_shared_t_a>([]{}); typedef float cusim_shared_t_b[16]; cusim_shared_t_b& b = *::cusim::shared_var<cusim_shared_t_b>([]{});
  typedef int cusim_shared_t_x; cusim_shared_t_x& x = *::cusim::shared_var<cusim_shared_t_x>([]{}); typedef int cusim_shared_t_y[4]; cusim_shared_t_y& y = *::cusim::shared_var<cusim_shared_t_y>([]{});
  typedef __align__(8) float * cusim_shared_t_p; cusim_shared_t_p& p = *::cusim::shared_var<cusim_shared_t_p>([]{ return alignof(cusim_shared_t_p); }); typedef __align__(8) float cusim_shared_t_q[2][3]; cusim_shared_t_q& q = *::cusim::shared_var<cusim_shared_t_q>([]{ return alignof(cusim_shared_t_q); }); typedef __align__(8) float * cusim_shared_t_r[2]; cusim_shared_t_r& r = *::cusim::shared_var<cusim_shared_t_r>([]{ return alignof(cusim_shared_t_r); });
  typedef double cusim_shared_t_d[]; ::std::remove_extent_t<cusim_shared_t_d>* const d = (::std::remove_extent_t<cusim_shared_t_d>*)::cusim::shared_dynamic(); typedef double cusim_shared_t_e[]; ::std::remove_extent_t<cusim_shared_t_e>* const e = (::std::remove_extent_t<cusim_shared_t_e>*)::cusim::shared_dynamic();
}
