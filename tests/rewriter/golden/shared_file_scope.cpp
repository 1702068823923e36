#line 1 "shared_file_scope.cu"
// __shared__ at file scope (as NVIDIA's dct8x8 sample declares it): each declarator becomes a
// typedef and an accessor of the current block's copy; every later use of the name calls it.
#define BLOCK 16
struct pair { int a; float b; };
typedef float cusim_shared_t_table[64 * 8]; static inline cusim_shared_t_table& cusim_file_shared_table() { return *::cusim::shared_var<cusim_shared_t_table>([]{}); }
typedef volatile int cusim_shared_t_grid2[4][BLOCK]; static inline cusim_shared_t_grid2& cusim_file_shared_grid2() { return *::cusim::shared_var<cusim_shared_t_grid2>([]{}); } typedef volatile int cusim_shared_t_count; static inline cusim_shared_t_count& cusim_file_shared_count() { return *::cusim::shared_var<cusim_shared_t_count>([]{}); } typedef volatile int * cusim_shared_t_where[2]; static inline cusim_shared_t_where& cusim_file_shared_where() { return *::cusim::shared_var<cusim_shared_t_where>([]{}); }
typedef __align__(16) struct pair cusim_shared_t_stats; static inline cusim_shared_t_stats& cusim_file_shared_stats() { return *::cusim::shared_var<cusim_shared_t_stats>([]{ return alignof(cusim_shared_t_stats); }); }
typedef float cusim_shared_t_dynamic[]; static inline ::std::remove_extent_t<cusim_shared_t_dynamic>* cusim_file_shared_dynamic() { return (::std::remove_extent_t<cusim_shared_t_dynamic>*)::cusim::shared_dynamic(); }

__device__ float first(int i) { return cusim_file_shared_table()[i] + sizeof(cusim_file_shared_table()) + *&cusim_file_shared_table()[i] + ::cusim_file_shared_count(); }
__global__ void one(float *out) {
  typedef float cusim_shared_t_local[sizeof( cusim_file_shared_grid2() ) / sizeof(int)]; cusim_shared_t_local& local = *::cusim::shared_var<cusim_shared_t_local>([]{});
  cusim_file_shared_table()[threadIdx.x] = cusim_file_shared_stats().b + cusim_file_shared_dynamic()[0] + cusim_file_shared_grid2()[1][2];
  cusim_file_shared_where()[0] = &cusim_file_shared_count();
  __syncthreads();
  out[0] = first(0) + local[0];
}
template <class T> __global__ void two(T *out, pair *host_side) {
  cusim_file_shared_table()[threadIdx.x] = (T)host_side->b;
  out[threadIdx.x] = cusim_file_shared_table()[BLOCK - 1 - threadIdx.x] + host_side[0].a;
}
void launch(float *out) {
  int count = 2; /* a local variable of the same name hides it in this block */
  count++;
  struct { int table; } s = {count};
  out[s.table] = 0;
  ::cusim::launch(::cusim::config(2, BLOCK, BLOCK * sizeof(float)), "one", __FILE__, __LINE__, [=](auto&&... cusim_arg) { ::cusim::detail::call_kernel([&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(one, cusim_probe)) { return ::cusim::detail::kernel_pointer(one, cusim_probe); }, [&] { one(cusim_arg...); }, cusim_arg...); }, out);
}
__device__ int again(void) { return cusim_file_shared_count() + cusim_file_shared_table()[0]; }
