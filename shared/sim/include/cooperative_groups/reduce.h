// cooperative_groups::reduce and the scans, for CPU simulator builds (shared/sim): each thread of
// a tile gets the combination of every thread's value. Built on the tile's shuffles, so the
// simulator checks them as warp operations; over a tile of 64 to 1024 threads, each warp's result
// then passes through a __shared__ slot between block barriers (every tile of the block calls it
// together, as with the tile's sync()). Floating-point sums may differ from a GPU's in the
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

namespace details {
// The scan within one warp of a tile of 64 to 1024 threads (lane 31 ends with the warp's total).
template <class T, class Op> T warp_inclusive_scan(T value, Op op) {
  const warp_tile<32> warp(0, 1);
  const unsigned int lane = warp.thread_rank();
  for (unsigned int distance = 1; distance < 32; distance *= 2) {
    const T other = warp.shfl_up(value, distance);
    if (lane >= distance) {
      value = op(other, value);
    }
  }
  return value;
}
} // namespace details

template <unsigned int Size, class ParentT, class T, class Op>
T reduce(const thread_block_tile<Size, ParentT> &tile, T value, Op op) {
  if constexpr (Size <= 32) {
    for (unsigned int distance = Size / 2; distance > 0; distance /= 2) {
      value = op(value, tile.shfl_xor(value, distance));
    }
    return value;
  } else { // each warp of the tile, then the warps' results in order (a __shared__ slot each)
    const details::warp_tile<32> warp(0, 1);
    for (unsigned int distance = 16; distance > 0; distance /= 2) {
      value = op(value, warp.shfl_xor(value, distance));
    }
    bool some = false;
    return tile.fold_warps(value, op, true, &some);
  }
}

template <unsigned int Size, class ParentT, class T, class Op>
T inclusive_scan(const thread_block_tile<Size, ParentT> &tile, T value, Op op) {
  if constexpr (Size <= 32) {
    const unsigned int rank = tile.thread_rank();
    for (unsigned int distance = 1; distance < Size; distance *= 2) {
      const T other = tile.shfl_up(value, distance);
      if (rank >= distance) {
        value = op(other, value);
      }
    }
    return value;
  } else { // the scan within each warp, after the totals of the tile's earlier warps
    value = details::warp_inclusive_scan(value, op);
    bool some = false;
    const T before = tile.fold_warps(value, op, false, &some);
    return some ? op(before, value) : value;
  }
}

template <unsigned int Size, class ParentT, class T>
T inclusive_scan(const thread_block_tile<Size, ParentT> &tile, T value) {
  return inclusive_scan(tile, value, plus<T>());
}

// Thread 0 gets T() (a value-initialized T: 0 for sums), as CUDA leaves it unspecified.
template <unsigned int Size, class ParentT, class T, class Op>
T exclusive_scan(const thread_block_tile<Size, ParentT> &tile, T value, Op op) {
  if constexpr (Size <= 32) {
    const T inclusive = inclusive_scan(tile, value, op);
    const T shifted = tile.shfl_up(inclusive, 1);
    return tile.thread_rank() == 0 ? T() : shifted;
  } else { // within the warp, then after the earlier warps' totals (lane 0 takes just those)
    const T inclusive = details::warp_inclusive_scan(value, op);
    const T shifted = details::warp_tile<32>(0, 1).shfl_up(inclusive, 1);
    bool some = false;
    const T before = tile.fold_warps(inclusive, op, false, &some);
    if ((tile.thread_rank() & 31u) == 0) return some ? before : T();
    return some ? op(before, shifted) : shifted;
  }
}

template <unsigned int Size, class ParentT, class T>
T exclusive_scan(const thread_block_tile<Size, ParentT> &tile, T value) {
  return exclusive_scan(tile, value, plus<T>());
}

// Over a coalesced group (coalesced_threads(), binary_partition, labeled_partition): by ranks,
// whatever lanes the group holds; pairs of neighbours, then of pairs, and so on, left to right.
template <class T, class Op> T reduce(const coalesced_group &group, T value, Op op) {
  const unsigned int rank = group.thread_rank(), size = group.size();
  for (unsigned int distance = 1; distance < size; distance *= 2) {
    const T other = group.shfl_down(value, distance);
    if (rank + distance < size) {
      value = op(value, other);
    }
  }
  return group.shfl(value, 0);
}

template <class T, class Op> T inclusive_scan(const coalesced_group &group, T value, Op op) {
  const unsigned int rank = group.thread_rank();
  for (unsigned int distance = 1; distance < group.size(); distance *= 2) {
    const T other = group.shfl_up(value, distance);
    if (rank >= distance) {
      value = op(other, value);
    }
  }
  return value;
}
template <class T> T inclusive_scan(const coalesced_group &group, T value) {
  return inclusive_scan(group, value, plus<T>());
}
template <class T, class Op> T exclusive_scan(const coalesced_group &group, T value, Op op) {
  const T shifted = group.shfl_up(inclusive_scan(group, value, op), 1);
  return group.thread_rank() == 0 ? T() : shifted;
}
template <class T> T exclusive_scan(const coalesced_group &group, T value) {
  return exclusive_scan(group, value, plus<T>());
}

} // namespace cooperative_groups

#endif // CUSIM_COOPERATIVE_GROUPS_REDUCE_H
