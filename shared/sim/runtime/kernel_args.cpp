// Kernel arguments of a class type with a copy constructor or destructor (see cusim_device.h,
// call_kernel): where the launch does not name one function, the simulator cannot hand each
// thread the argument's bytes and runs the plain call; it says so once.
#include "internal.hpp"

#include <atomic>
#include <cstdio>

namespace cusim {
namespace detail {

void warn_arguments_copied() {
  static std::atomic<bool> warned{false};
  if (warned.exchange(true)) return;
  std::fprintf(stderr,
               "cusim: warning: a kernel argument has a copy constructor or destructor, and\n"
               "cusim: warning: the launch names an overloaded or deduced template kernel, so\n"
               "cusim: warning: they run once per simulated thread (a GPU copies the bytes and\n"
               "cusim: warning: runs neither on the device); give the template arguments\n");
}

} // namespace detail
} // namespace cusim
