/* cudaLaunchKernel for the CPU simulator. The rewriter registers every non-template __global__
   definition, and each instance of a template kernel with __launch_bounds__ (its address, name
   and an invoker typed by its parameters); cudaLaunchKernel looks
   the address up and the invoker unpacks void **args into the ordinary launch path, with the
   same checks and diagnostics as <<< >>>. */
#ifndef CUSIM_LAUNCH_KERNEL_H
#define CUSIM_LAUNCH_KERNEL_H
#pragma GCC system_header

#include <cstddef>
#include <type_traits>
#include <utility>

namespace cusim {

typedef void (*kernel_invoker)(const void *func, struct config cfg, void **args, const char *name,
                               const char *file, int line);
/* max_threads: the first argument of the kernel's __launch_bounds__, or 0 without one. */
void register_kernel(const void *func, const char *name, kernel_invoker invoker,
                     int max_threads = 0);
/* The most threads a block of this kernel may have: its __launch_bounds__ maximum, else 1024. */
int kernel_max_threads(const void *func);
cudaError_t launch_registered(const char *file, int line, const void *func, dim3 grid, dim3 block,
                              void **args, size_t shared, cudaStream_t stream);
/* Each entry of the argument array must be the address of an argument (runtime:
   launch_kernel.cpp); false, with a line and cudaErrorInvalidValue, for one that is not. */
bool check_kernel_params(void **args, std::size_t count, const std::size_t *sizes, const char *name,
                         const char *file, int line);
/* The same, for cudaLaunchCooperativeKernel (runtime: cooperative.cpp). */
cudaError_t launch_cooperative(const char *file, int line, const void *func, dim3 grid, dim3 block,
                               void **args, size_t shared, cudaStream_t stream);

namespace detail {
template <class... P, std::size_t... I>
void invoke_unpacked(void (*kernel)(P...), struct config cfg, void **args, const char *name,
                     const char *file, int line, std::index_sequence<I...>) {
  ::cusim::launch(
      cfg, name, file, line,
      [=](auto &&...arg) {
        ::cusim::detail::call_kernel([=](kernel_probe) { return kernel; }, [&] { kernel(arg...); },
                                     arg...);
      },
      *static_cast<std::remove_cv_t<std::remove_reference_t<P>> *>(args[I])...);
}
template <class... P>
void invoke_kernel(const void *func, struct config cfg, void **args, const char *name,
                   const char *file, int line) {
  const std::size_t sizes[] = {sizeof(P)..., 0};
  if (!check_kernel_params(args, sizeof...(P), sizes, name, file, line)) return;
  invoke_unpacked(reinterpret_cast<void (*)(P...)>(const_cast<void *>(func)), cfg, args, name, file,
                  line, std::index_sequence_for<P...>{});
}
} // namespace detail

/* __launch_bounds__(maxThreadsPerBlock, minBlocksPerMultiprocessor, maxBlocksPerCluster): the
   rewriter passes its arguments to the registration. Only the first changes what a launch may
   do; the others steer the compiler's register budget, which the simulator does not model. */
struct launch_bounds {
  int max_threads, min_blocks, max_cluster;
  constexpr launch_bounds(int max_threads_, int min_blocks_ = 0, int max_cluster_ = 0)
      : max_threads(max_threads_), min_blocks(min_blocks_), max_cluster(max_cluster_) {}
};

/* What the rewriter writes after each __global__ definition. */
struct kernel_registration {
  template <class... P> kernel_registration(void (*kernel)(P...), const char *name) {
    register_kernel(reinterpret_cast<const void *>(kernel), name, &detail::invoke_kernel<P...>);
  }
  template <class... P>
  kernel_registration(void (*kernel)(P...), const char *name, launch_bounds bounds) {
    register_kernel(reinterpret_cast<const void *>(kernel), name, &detail::invoke_kernel<P...>,
                    bounds.max_threads);
  }
};

template <class T>
inline cudaError_t launch_kernel_at(const char *file, int line, T *func, dim3 grid, dim3 block,
                                    void **args, size_t shared = 0, cudaStream_t stream = 0) {
  return launch_registered(file, line, (const void *)func, grid, block, args, shared, stream);
}
template <class T>
inline cudaError_t launch_cooperative_kernel_at(const char *file, int line, T *func, dim3 grid,
                                                dim3 block, void **args, size_t shared = 0,
                                                cudaStream_t stream = 0) {
  return launch_cooperative(file, line, (const void *)func, grid, block, args, shared, stream);
}

} // namespace cusim

/* The C function and the C++ template of cuda_runtime.h, with the call site for diagnostics. */
#define cudaLaunchKernel(...) (::cusim::launch_kernel_at(__FILE__, __LINE__, __VA_ARGS__))
#define cudaLaunchCooperativeKernel(...)                                                           \
  (::cusim::launch_cooperative_kernel_at(__FILE__, __LINE__, __VA_ARGS__))

#endif
