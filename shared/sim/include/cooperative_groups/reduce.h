// cooperative_groups::reduce and the scans, for CPU simulator builds (shared/sim): each thread of
// a tile gets the combination of every thread's value. Built on the tile's shuffles, so the
// simulator checks them as warp operations. Floating-point sums may differ from a GPU's in the
// last bits (the order of the additions is not specified by CUDA).
#ifndef CUSIM_COOPERATIVE_GROUPS_REDUCE_H
#define CUSIM_COOPERATIVE_GROUPS_REDUCE_H

#include "../cooperative_groups.h"

namespace cooperative_groups {

template <class T = void> struct plus {
  T operator()(const T &a, const T &b) const { return a + b; }
};
template <class T = void> struct less {
  T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
template <class T = void> struct greater {
  T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
template <class T = void> struct bit_and {
  T operator()(const T &a, const T &b) const { return a & b; }
};
template <class T = void> struct bit_or {
  T operator()(const T &a, const T &b) const { return a | b; }
};
template <class T = void> struct bit_xor {
  T operator()(const T &a, const T &b) const { return a ^ b; }
};

template <unsigned int Size, class ParentT, class T, class Op>
T reduce(const thread_block_tile<Size, ParentT> &tile, T value, Op op) {
  for (unsigned int distance = Size / 2; distance > 0; distance /= 2) {
    value = op(value, tile.shfl_xor(value, distance));
  }
  return value;
}

template <unsigned int Size, class ParentT, class T, class Op>
T inclusive_scan(const thread_block_tile<Size, ParentT> &tile, T value, Op op) {
  const unsigned int rank = tile.thread_rank();
  for (unsigned int distance = 1; distance < Size; distance *= 2) {
    const T other = tile.shfl_up(value, distance);
    if (rank >= distance) {
      value = op(other, value);
    }
  }
  return value;
}

template <unsigned int Size, class ParentT, class T>
T inclusive_scan(const thread_block_tile<Size, ParentT> &tile, T value) {
  return inclusive_scan(tile, value, plus<T>());
}

// Thread 0 gets T() (a value-initialized T: 0 for sums), as CUDA leaves it unspecified.
template <unsigned int Size, class ParentT, class T, class Op>
T exclusive_scan(const thread_block_tile<Size, ParentT> &tile, T value, Op op) {
  const T inclusive = inclusive_scan(tile, value, op);
  const T shifted = tile.shfl_up(inclusive, 1);
  return tile.thread_rank() == 0 ? T() : shifted;
}

template <unsigned int Size, class ParentT, class T>
T exclusive_scan(const thread_block_tile<Size, ParentT> &tile, T value) {
  return exclusive_scan(tile, value, plus<T>());
}

} // namespace cooperative_groups

#endif // CUSIM_COOPERATIVE_GROUPS_REDUCE_H
