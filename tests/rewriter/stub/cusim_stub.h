// A stand-in for the simulator's headers, just big enough for the rewriter's output to compile
// and run without the real runtime: each launch prints what it was given and runs the kernel
// once, as thread 0 of block 0. Force-included (-include) like the real cusim_prelude.h.
#ifndef CUSIM_STUB_H
#define CUSIM_STUB_H

#include <cstddef>
#include <cstdio>
#include <type_traits>
#include <utility>

#define __global__
#define __device__
#define __host__
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
// A __shared__ the rewriter missed must not compile.
#define __shared__ cusim_stub_error_shared_was_not_rewritten

struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};
struct uint3 {
  unsigned x, y, z;
};
typedef struct CUstream_st *cudaStream_t;
static const uint3 threadIdx = {0, 0, 0};
static const uint3 blockIdx = {0, 0, 0};
static const dim3 blockDim(1), gridDim(1);

namespace cusim {
struct launch_config {
  dim3 grid, block;
  std::size_t shared;
  cudaStream_t stream;
  const void *kernel = nullptr;
};
inline launch_config config(dim3 grid, dim3 block, std::size_t shared = 0,
                            cudaStream_t stream = 0) {
  return launch_config{grid, block, shared, stream};
}
template <class Probe> struct probed_config {
  launch_config cfg;
  Probe probe;
};
template <class Probe> probed_config<Probe> with_probe(launch_config c, Probe probe) {
  return probed_config<Probe>{c, probe};
}
struct null_arg {
  template <class T> operator T() const { return T(); }
};
template <class F, class... A>
void launch(launch_config config, const char *name, const char *file, int line, F kernel_call,
            A &&...args) {
  std::printf("%s:%d: %s<<<%u, %u, %zu>>> with %zu arguments\n", file, line, name, config.grid.x,
              config.block.x, config.shared, sizeof...(A));
  kernel_call(std::decay_t<A>(std::forward<A>(args))...);
}
template <class Probe, class F, class... A>
void launch(probed_config<Probe> pc, const char *name, const char *file, int line, F kernel_call,
            A &&...args) {
  launch(pc.cfg, name, file, line, kernel_call, std::forward<A>(args)...);
}
// The alignment a __shared__ declaration asks for: its type's, or what an aligned declaration's
// site returns (a template argument loses a typedef's alignment attribute).
template <class T, class Site> constexpr std::size_t shared_alignment(Site site) {
  if constexpr (std::is_invocable_r_v<std::size_t, Site>)
    return alignof(T) > site() ? alignof(T) : site();
  else
    return alignof(T);
}
// Storage aligned to exactly the alignment asked for and no more, so that asking for too little
// shows up in a test.
template <class T, class Site> T *shared_var(Site site) {
  constexpr std::size_t alignment = shared_alignment<T>(site);
  alignas(2 * alignment) static unsigned char storage[sizeof(T) + alignment];
  return reinterpret_cast<T *>(storage + alignment);
}
inline void *shared_dynamic() {
  alignas(16) static unsigned char storage[4096];
  return storage;
}
// The per-thread call of a kernel (the simulator passes arguments bytewise; here a plain call).
namespace detail {
struct kernel_probe {};
template <class... P> auto kernel_pointer(void (*f)(P...), kernel_probe) -> void (*)(P...) {
  return f;
}
template <class... P> struct kernel_probe_for {};
template <class... P> auto kernel_pointer(void (*f)(P...), kernel_probe_for<P...>) -> void (*)(P...) {
  return f;
}
template <class Probe, class Direct, class... A> void call_kernel(Probe, Direct direct, A &...) {
  direct();
}
} // namespace detail
} // namespace cusim

#endif
