// cooperative_groups/memcpy_async.h for CPU simulator builds: cg::memcpy_async, cg::wait and
// cg::wait_prior. Every thread of the group calls memcpy_async with the same arguments and issues
// its own share of the copy (cusim_async.h); wait completes the thread's copies, then syncs the
// group, as CUDA's wait does. A read of the destination before the wait is reported by the
// memory checker (runtime/async_copy.cpp).
#ifndef CUSIM_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H
#define CUSIM_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H
#pragma GCC system_header
#define _COOPERATIVE_GROUPS_MEMCPY_ASYNC

#include "../cooperative_groups.h"
#include "../cusim_async.h"

namespace cooperative_groups {
namespace details {
inline char memcpy_async_key; /* the key of every thread's cg copies */
// Each call is a batch of its own (wait_prior counts calls).
template <class Group>
__attribute__((always_inline)) inline void group_copy(const Group &g, void *dst, const void *src,
                                                      size_t n, const char *file, int line) {
  size_t lo, hi;
  ::cuda::cusim_detail::group_share(g, n, &lo, &hi);
  unsigned long long *batch = ::cusim::dev::async_counter(1);
  if (hi > lo)
    ::cusim::dev::async_copy(&memcpy_async_key, *batch, (char *)dst + lo, (const char *)src + lo,
                             hi - lo, 0, file, line);
  ++*batch;
}
} // namespace details

template <class Group>
__attribute__((always_inline)) inline void
memcpy_async(const Group &g, void *dst, const void *src, size_t bytes,
             const char *cusim_file = __builtin_FILE(), int cusim_line = __builtin_LINE()) {
  details::group_copy(g, dst, src, bytes, cusim_file, cusim_line);
}
template <class Group, size_t Align>
__attribute__((always_inline)) inline void
memcpy_async(const Group &g, void *dst, const void *src, ::cuda::aligned_size_t<Align> bytes,
             const char *cusim_file = __builtin_FILE(), int cusim_line = __builtin_LINE()) {
  ::cuda::cusim_detail::check_alignment(dst, src, bytes, cusim_file, cusim_line);
  details::group_copy(g, dst, src, bytes.value, cusim_file, cusim_line);
}
/* The element form: src_count elements of T; dst_count must hold them. */
template <class Group, class T>
__attribute__((always_inline)) inline void
memcpy_async(const Group &g, T *dst, size_t dst_count, const T *src, size_t src_count,
             const char *cusim_file = __builtin_FILE(), int cusim_line = __builtin_LINE()) {
  if (src_count > dst_count)
    ::cusim::dev::misuse("cg::memcpy_async: more source elements than the destination holds",
                         cusim_file, cusim_line);
  details::group_copy(g, dst, src, src_count * sizeof(T), cusim_file, cusim_line);
}

template <class Group> __attribute__((always_inline)) inline void wait(const Group &g) {
  ::cusim::dev::async_wait(&details::memcpy_async_key, ~0ull);
  g.sync();
}
template <unsigned NumStages, class Group>
__attribute__((always_inline)) inline void wait_prior(const Group &g) {
  unsigned long long head = *::cusim::dev::async_counter(1);
  ::cusim::dev::async_wait(&details::memcpy_async_key, head > NumStages ? head - NumStages : 0);
  g.sync();
}
} // namespace cooperative_groups

#endif
