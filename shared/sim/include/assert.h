/* assert.h for simulator builds: the system's assert; in rewritten .cu files (CUSIM_DEVICE_ASSERT,
   set by cusim_prelude.h) an assert that fails inside a kernel prints CUDA's device-assert line
   (file:line: function: block: [x,y,z], thread: [x,y,z] Assertion `expr` failed.) and makes the
   launch fail with cudaErrorAssert; on the host it is the system's assert. No include guard, as
   for the system header: NDEBUG may change between inclusions. */
#pragma GCC system_header
#include_next <assert.h>

#if defined(__cplusplus) && defined(CUSIM_DEVICE_ASSERT) && !defined(NDEBUG)
#undef assert
namespace cusim {
namespace dev {
[[noreturn]] void assert_check(const char *expr, const char *file, int line, const char *function);
}
} // namespace cusim
#define assert(e)                                                                                  \
  ((e) ? (void)0 : ::cusim::dev::assert_check(#e, __FILE__, __LINE__, __PRETTY_FUNCTION__))
#endif
