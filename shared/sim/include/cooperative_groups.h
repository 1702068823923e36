// Cooperative groups for CPU simulator builds (shared/sim): the parts teaching kernels use.
//
// thread_block (this_thread_block(), also with block_tile_memory), thread_block_tile<N> for
// N = 1, 2, 4, 8, 16, 32 (tiled_partition<N>, with shfl, shfl_up, shfl_down, shfl_xor of any
// trivially copyable type, any, all, ballot, sync, meta_group_rank) and for N = 64 to 1024 (sync,
// shfl, any, all, ranks; reduce and the scans in cooperative_groups/reduce.h),
// tiled_partition(group, n) as a thread_group, coalesced_threads(), binary_partition and
// labeled_partition, and grid_group (this_grid()) with its ranks and sizes, and grid_group::sync()
// in a kernel launched with cudaLaunchCooperativeKernel.
//
// Everything is written on the standard CUDA device functions (__syncthreads, __syncwarp,
// __shfl_*_sync, __ballot_sync, __any_sync, __all_sync, __activemask), so the simulator checks a
// group's barriers and shuffles exactly as it checks the plain ones.
#ifndef CUSIM_COOPERATIVE_GROUPS_H
#define CUSIM_COOPERATIVE_GROUPS_H
/* The toolkit's own guard name: programs test it (helper_cuda.h does). */
#define _COOPERATIVE_GROUPS_H_

#ifndef __cplusplus
#error "cooperative_groups.h is for CUDA C++ (.cu) sources"
#endif

#include <cuda_runtime.h>

#include <cstring>
#include <type_traits>

namespace cusim {
namespace dev {
void grid_sync(const char *file, int line); /* cooperative.cpp */
bool grid_is_valid();
} // namespace dev
} // namespace cusim

namespace cooperative_groups {

namespace details {

inline unsigned int block_thread_rank() {
  return CUSIM_BUILTIN_THREAD_IDX.x +
         CUSIM_BUILTIN_BLOCK_DIM.x *
             (CUSIM_BUILTIN_THREAD_IDX.y + CUSIM_BUILTIN_BLOCK_DIM.y * CUSIM_BUILTIN_THREAD_IDX.z);
}

inline unsigned int block_num_threads() {
  return CUSIM_BUILTIN_BLOCK_DIM.x * CUSIM_BUILTIN_BLOCK_DIM.y * CUSIM_BUILTIN_BLOCK_DIM.z;
}

inline unsigned int lane_id() {
  return block_thread_rank() & 31u;
}

// The lanes of a tile of `size` threads (a power of two up to 32) that holds this thread, as a
// warp mask, leaving out lanes past the end of the block (its last warp may be partial).
inline unsigned int tile_mask(unsigned int size) {
  const unsigned int rank = block_thread_rank();
  const unsigned int first = rank & ~(size - 1);
  const unsigned int block_threads = block_num_threads();
  unsigned int count = block_threads - first < size ? block_threads - first : size;
  const unsigned int lanes = count >= 32 ? 0xffffffffu : (1u << count) - 1u;
  return lanes << (first & 31u);
}

template <class> struct always_false { static constexpr bool value = false; };

} // namespace details

// A group whose kind is known only at run time: what tiled_partition(group, n) returns, and
// what the functions taking `const thread_group&` see.
class thread_group {
public:
  unsigned long long size() const { return num_threads(); }
  unsigned long long num_threads() const {
    switch (kind_) {
    case block_kind:
      return details::block_num_threads();
    case coalesced_kind:
      return (unsigned long long)__builtin_popcount(mask_);
    default:
      return tile_size_;
    }
  }
  unsigned long long thread_rank() const {
    switch (kind_) {
    case block_kind:
      return details::block_thread_rank();
    case coalesced_kind:
      return (unsigned long long)__builtin_popcount(mask_ & ((1u << details::lane_id()) - 1u));
    default:
      return details::block_thread_rank() & (tile_size_ - 1);
    }
  }
  void sync() const {
    if (kind_ == block_kind) {
      __syncthreads();
    } else if (kind_ == coalesced_kind) {
      __syncwarp(mask_);
    } else {
      __syncwarp(details::tile_mask(tile_size_));
    }
  }
  bool is_valid() const { return true; }

protected:
  enum group_kind { block_kind, tile_kind, coalesced_kind };
  explicit thread_group(group_kind kind, unsigned int tile_size = 0, unsigned int mask = 0)
      : kind_(kind), tile_size_(tile_size), mask_(mask) {}

  group_kind kind_;
  unsigned int tile_size_;
  unsigned int mask_;

  friend thread_group tiled_partition(const thread_group &parent, unsigned int tile_size);
};

// The memory a GPU before sm_80 needs for tiles larger than 32 threads; the simulator needs
// none, and this_thread_block(scratch) is this_thread_block().
template <unsigned int MaxBlockSize = 1024> struct block_tile_memory {
private:
  alignas(8) unsigned char reserved_[8 * ((MaxBlockSize + 31) / 32)];
};

class thread_block : public thread_group {
public:
  static unsigned int size() { return details::block_num_threads(); }
  static unsigned int num_threads() { return details::block_num_threads(); }
  static unsigned int thread_rank() { return details::block_thread_rank(); }
  static dim3 group_index() {
    return dim3(CUSIM_BUILTIN_BLOCK_IDX.x, CUSIM_BUILTIN_BLOCK_IDX.y, CUSIM_BUILTIN_BLOCK_IDX.z);
  }
  static dim3 thread_index() {
    return dim3(CUSIM_BUILTIN_THREAD_IDX.x, CUSIM_BUILTIN_THREAD_IDX.y, CUSIM_BUILTIN_THREAD_IDX.z);
  }
  static dim3 group_dim() {
    return dim3(CUSIM_BUILTIN_BLOCK_DIM.x, CUSIM_BUILTIN_BLOCK_DIM.y, CUSIM_BUILTIN_BLOCK_DIM.z);
  }
  static dim3 dim_threads() { return group_dim(); }
  static void sync() { __syncthreads(); }
  static bool is_valid() { return true; }

private:
  thread_block() : thread_group(block_kind) {}
  friend thread_block this_thread_block();
};

inline thread_block this_thread_block() {
  return thread_block();
}
template <unsigned int MaxBlockSize>
thread_block this_thread_block(block_tile_memory<MaxBlockSize> &) {
  return this_thread_block();
}

// A tile of Size threads: Size consecutive ranks of the block. Up to 32 threads a tile lies
// inside one warp and its collectives are warp functions; a tile of 64 to 1024 threads spans
// several warps (see multi_warp_tile below).
template <unsigned int Size, class ParentT = void> class thread_block_tile;

namespace details {

// Shuffles of a type larger than 8 bytes (a uint4, a struct): CUDA's tiles move any trivially
// copyable type, 8 bytes per warp shuffle; `move` shuffles one 8-byte word.
template <class T, class Move> T shuffle_words(const T &value, Move move) {
  static_assert(std::is_trivially_copyable<T>::value, "a shuffled type must be trivially copyable");
  constexpr unsigned int words = (sizeof(T) + 7) / 8;
  unsigned long long in[words] = {}, out[words];
  std::memcpy(in, &value, sizeof(T));
  for (unsigned int i = 0; i < words; ++i) out[i] = move(in[i]);
  T result;
  std::memcpy(&result, out, sizeof(T));
  return result;
}

template <unsigned int Size> class warp_tile : public thread_group {
  static_assert(Size == 1 || Size == 2 || Size == 4 || Size == 8 || Size == 16 || Size == 32,
                "thread_block_tile sizes are 1, 2, 4, 8, 16, 32, and 64 to 1024 (powers of 2)");

public:
  static constexpr unsigned int num_threads() { return Size; }
  static constexpr unsigned int size() { return Size; }
  static unsigned int thread_rank() { return details::block_thread_rank() & (Size - 1); }
  unsigned int meta_group_rank() const { return meta_rank_; }
  unsigned int meta_group_size() const { return meta_size_; }
  void sync() const { __syncwarp(mask()); }
  bool is_valid() const { return true; }

  template <class T> T shfl(T var, int source_rank) const {
    if constexpr (sizeof(T) <= 8)
      return __shfl_sync(mask(), var, source_rank, (int)Size);
    else
      return shuffle_words(var, [&](unsigned long long w) {
        return __shfl_sync(mask(), w, source_rank, (int)Size);
      });
  }
  template <class T> T shfl_up(T var, unsigned int delta) const {
    if constexpr (sizeof(T) <= 8)
      return __shfl_up_sync(mask(), var, delta, (int)Size);
    else
      return shuffle_words(
          var, [&](unsigned long long w) { return __shfl_up_sync(mask(), w, delta, (int)Size); });
  }
  template <class T> T shfl_down(T var, unsigned int delta) const {
    if constexpr (sizeof(T) <= 8)
      return __shfl_down_sync(mask(), var, delta, (int)Size);
    else
      return shuffle_words(
          var, [&](unsigned long long w) { return __shfl_down_sync(mask(), w, delta, (int)Size); });
  }
  template <class T> T shfl_xor(T var, unsigned int lane_mask) const {
    if constexpr (sizeof(T) <= 8)
      return __shfl_xor_sync(mask(), var, (int)lane_mask, (int)Size);
    else
      return shuffle_words(var, [&](unsigned long long w) {
        return __shfl_xor_sync(mask(), w, (int)lane_mask, (int)Size);
      });
  }
  int any(int predicate) const { return __any_sync(mask(), predicate); }
  int all(int predicate) const { return __all_sync(mask(), predicate); }
  // Bit i is the predicate of the tile's thread i.
  unsigned int ballot(int predicate) const {
    const unsigned int bits = __ballot_sync(mask(), predicate);
    return Size == 32 ? bits : (bits >> (details::lane_id() & ~(Size - 1))) & ((1u << Size) - 1u);
  }

  warp_tile(unsigned int meta_rank, unsigned int meta_size)
      : thread_group(tile_kind, Size), meta_rank_(meta_rank), meta_size_(meta_size) {}

private:
  static unsigned int mask() { return details::tile_mask(Size); }

  unsigned int meta_rank_;
  unsigned int meta_size_;
};

// A tile of 64 to 1024 threads: what CUDA offers on it (sync, shfl of at most 8 bytes, any, all,
// ranks and sizes). A GPU synchronizes such a tile through barriers in block_tile_memory (or
// memory reserved for it from sm_80 on). Here sync() is the block's barrier, so every tile of the
// block must reach it together: code where only some tiles call a collective is stopped as
// barrier divergence (stricter than a GPU, never a wrong answer). shfl and any/all pass values
// through a __shared__ slot per warp between two such barriers.
template <unsigned int Size> class multi_warp_tile : public thread_group {
  static_assert((Size & (Size - 1)) == 0 && Size > 32 && Size <= 1024,
                "thread_block_tile sizes are 1, 2, 4, 8, 16, 32, and 64 to 1024 (powers of 2)");
  struct scratch {
    unsigned long long word[32]; // one per warp of the block
  };
  static scratch &slots() {
    return *::cusim::shared_var<scratch>([] {});
  }

public:
  static constexpr unsigned int num_threads() { return Size; }
  static constexpr unsigned int size() { return Size; }
  static unsigned int thread_rank() { return details::block_thread_rank() & (Size - 1); }
  unsigned int meta_group_rank() const { return meta_rank_; }
  unsigned int meta_group_size() const { return meta_size_; }
  void sync() const { __syncthreads(); }
  bool is_valid() const { return true; }

  template <class T> T shfl(T var, unsigned int source_rank) const {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value,
                  "Collectives with tiles larger than 32 threads are limited to types of at most "
                  "8 bytes (as in CUDA)");
    const unsigned int first = details::block_thread_rank() - thread_rank();
    const unsigned int source = first + (source_rank & (Size - 1));
    scratch &s = slots();
    __syncthreads();
    if (details::block_thread_rank() == source) std::memcpy(&s.word[source / 32], &var, sizeof(T));
    __syncthreads();
    T result;
    std::memcpy(&result, &s.word[source / 32], sizeof(T));
    __syncthreads();
    return result;
  }
  int any(int predicate) const { return combine(predicate != 0, false); }
  int all(int predicate) const { return combine(predicate != 0, true); }

  // For reduce and the scans over this tile (cooperative_groups/reduce.h): `last` is each warp's
  // own result, taken from its lane 31; every thread gets op over the warps of its tile in order,
  // all of them (`whole`) or only those before its own warp (`*some` says whether there were any).
  template <class T, class Op> T fold_warps(const T &last, Op op, bool whole, bool *some) const {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value,
                  "Collectives with tiles larger than 32 threads are limited to types of at most "
                  "8 bytes (as in CUDA)");
    const unsigned int warp = details::block_thread_rank() / 32;
    const unsigned int first_warp = (details::block_thread_rank() - thread_rank()) / 32;
    scratch &s = slots();
    __syncthreads();
    if ((details::block_thread_rank() & 31u) == 31u) std::memcpy(&s.word[warp], &last, sizeof(T));
    __syncthreads();
    T result = last;
    bool any = false;
    for (unsigned int w = first_warp; w < (whole ? first_warp + Size / 32 : warp); ++w) {
      T value;
      std::memcpy(&value, &s.word[w], sizeof(T));
      result = any ? op(result, value) : value;
      any = true;
    }
    __syncthreads();
    *some = any;
    return result;
  }

  multi_warp_tile(unsigned int meta_rank, unsigned int meta_size)
      : thread_group(tile_kind, Size), meta_rank_(meta_rank), meta_size_(meta_size) {}

private:
  int combine(bool mine, bool all_of) const {
    const unsigned int warp = details::block_thread_rank() / 32;
    const unsigned int first_warp = (details::block_thread_rank() - thread_rank()) / 32;
    scratch &s = slots();
    __syncthreads();
    const unsigned int lanes = details::tile_mask(32);
    const int in_warp = all_of ? __all_sync(lanes, mine) : __any_sync(lanes, mine);
    if ((details::block_thread_rank() & 31u) == 0) s.word[warp] = (unsigned long long)in_warp;
    __syncthreads();
    int result = all_of ? 1 : 0;
    const unsigned int warps = (details::block_num_threads() + 31) / 32;
    for (unsigned int w = first_warp; w < first_warp + Size / 32 && w < warps; ++w)
      result = all_of ? (result && s.word[w] != 0) : (result || s.word[w] != 0);
    __syncthreads();
    return result;
  }

  unsigned int meta_rank_;
  unsigned int meta_size_;
};

template <unsigned int Size>
using tile_base =
    typename std::conditional<(Size > 32), multi_warp_tile<Size>, warp_tile<Size>>::type;

} // namespace details

template <unsigned int Size> class thread_block_tile<Size, void> : public details::tile_base<Size> {
public:
  thread_block_tile(unsigned int meta_rank, unsigned int meta_size)
      : details::tile_base<Size>(meta_rank, meta_size) {}
};

template <unsigned int Size, class ParentT>
class thread_block_tile : public thread_block_tile<Size, void> {
public:
  using thread_block_tile<Size, void>::thread_block_tile;
};

template <unsigned int Size>
thread_block_tile<Size, thread_block> tiled_partition(const thread_block &) {
  const unsigned int threads = details::block_num_threads();
  return thread_block_tile<Size, thread_block>(details::block_thread_rank() / Size,
                                               (threads + Size - 1) / Size);
}

template <unsigned int Size, unsigned int ParentSize, class P>
thread_block_tile<Size, thread_block_tile<ParentSize, P>>
tiled_partition(const thread_block_tile<ParentSize, P> &parent) {
  static_assert(Size <= ParentSize, "a tile can only be split into smaller tiles");
  return thread_block_tile<Size, thread_block_tile<ParentSize, P>>(
      (unsigned int)parent.thread_rank() / Size, ParentSize / Size);
}

// tiled_partition with a size known at run time (a power of two, at most 32).
inline thread_group tiled_partition(const thread_group &parent, unsigned int tile_size) {
  (void)parent;
  return thread_group(thread_group::tile_kind, tile_size);
}

// The threads of the warp that are running this code together.
class coalesced_group;
namespace details {
coalesced_group partition_of(unsigned int lanes);
unsigned int lanes_of(const coalesced_group &group);
} // namespace details

class coalesced_group : public thread_group {
public:
  unsigned int size() const { return (unsigned int)__builtin_popcount(mask_); }
  unsigned int num_threads() const { return size(); }
  unsigned int thread_rank() const {
    return (unsigned int)__builtin_popcount(mask_ & ((1u << details::lane_id()) - 1u));
  }
  unsigned int meta_group_rank() const { return 0; }
  unsigned int meta_group_size() const { return 1; }
  void sync() const { __syncwarp(mask_); }

  // rank is the source's rank within the group, as in CUDA.
  template <class T> T shfl(T var, unsigned int source_rank) const {
    return __shfl_sync(mask_, var, lane_of_rank(source_rank), 32);
  }
  template <class T> T shfl_down(T var, unsigned int delta) const {
    const unsigned int target = thread_rank() + delta;
    const T moved = __shfl_sync(mask_, var, lane_of_rank(target < size() ? target : 0), 32);
    return target < size() ? moved : var;
  }
  template <class T> T shfl_up(T var, unsigned int delta) const {
    const unsigned int rank = thread_rank();
    const T moved = __shfl_sync(mask_, var, lane_of_rank(rank >= delta ? rank - delta : 0), 32);
    return rank >= delta ? moved : var;
  }
  int any(int predicate) const { return __any_sync(mask_, predicate); }
  int all(int predicate) const { return __all_sync(mask_, predicate); }
  // Bit i is the predicate of the group's thread of rank i.
  unsigned int ballot(int predicate) const {
    const unsigned int lanes = __ballot_sync(mask_, predicate);
    unsigned int packed = 0;
    unsigned int rank = 0;
    for (unsigned int m = mask_; m != 0; m &= m - 1, ++rank) {
      if (lanes & (m & -m)) {
        packed |= 1u << rank;
      }
    }
    return packed;
  }

private:
  explicit coalesced_group(unsigned int mask) : thread_group(coalesced_kind, 0, mask) {}
  int lane_of_rank(unsigned int rank) const {
    unsigned int m = mask_;
    for (unsigned int i = 0; i < rank && m != 0; ++i) {
      m &= m - 1;
    }
    return m == 0 ? 0 : __builtin_ctz(m);
  }
  friend coalesced_group coalesced_threads();
  friend coalesced_group details::partition_of(unsigned int lanes);
  friend unsigned int details::lanes_of(const coalesced_group &group);
};

__attribute__((always_inline)) inline coalesced_group coalesced_threads() { // (see __activemask)
  return coalesced_group(__activemask());
}

namespace details {
inline coalesced_group partition_of(unsigned int lanes) {
  return coalesced_group(lanes);
}
inline unsigned int lanes_of(const coalesced_group &group) {
  return group.mask_;
}
} // namespace details

// binary_partition and labeled_partition: every thread of the group calls them; the threads with
// the same predicate (or label) form one coalesced group. For groups within one warp, as in CUDA.
inline coalesced_group binary_partition(const coalesced_group &group, bool predicate) {
  const unsigned int lanes = details::lanes_of(group);
  const unsigned int set = __ballot_sync(lanes, predicate);
  return details::partition_of(predicate ? set : lanes & ~set);
}
template <unsigned int Size, class ParentT>
coalesced_group binary_partition(const thread_block_tile<Size, ParentT> &, bool predicate) {
  static_assert(Size <= 32, "binary_partition takes a tile of at most 32 threads (as in CUDA)");
  const unsigned int lanes = details::tile_mask(Size);
  const unsigned int set = __ballot_sync(lanes, predicate);
  return details::partition_of(predicate ? set : lanes & ~set);
}
template <class Label>
coalesced_group labeled_partition(const coalesced_group &group, Label label) {
  return details::partition_of(__match_any_sync(details::lanes_of(group), label));
}
template <class Label, unsigned int Size, class ParentT>
coalesced_group labeled_partition(const thread_block_tile<Size, ParentT> &, Label label) {
  static_assert(Size <= 32, "labeled_partition takes a tile of at most 32 threads (as in CUDA)");
  return details::partition_of(__match_any_sync(details::tile_mask(Size), label));
}

// The whole grid. sync() needs cudaLaunchCooperativeKernel, as on a GPU (runtime: cooperative.cpp).
class grid_group {
public:
  static unsigned long long thread_rank() {
    return block_rank() * (unsigned long long)details::block_num_threads() +
           details::block_thread_rank();
  }
  static unsigned long long size() { return num_threads(); }
  static unsigned long long num_threads() {
    return num_blocks() * (unsigned long long)details::block_num_threads();
  }
  static unsigned long long num_blocks() {
    return (unsigned long long)CUSIM_BUILTIN_GRID_DIM.x * CUSIM_BUILTIN_GRID_DIM.y *
           CUSIM_BUILTIN_GRID_DIM.z;
  }
  static unsigned long long block_rank() {
    return CUSIM_BUILTIN_BLOCK_IDX.x +
           (unsigned long long)CUSIM_BUILTIN_GRID_DIM.x *
               (CUSIM_BUILTIN_BLOCK_IDX.y + CUSIM_BUILTIN_GRID_DIM.y * CUSIM_BUILTIN_BLOCK_IDX.z);
  }
  static dim3 group_dim() {
    return dim3(CUSIM_BUILTIN_GRID_DIM.x, CUSIM_BUILTIN_GRID_DIM.y, CUSIM_BUILTIN_GRID_DIM.z);
  }
  static dim3 dim_blocks() { return group_dim(); }
  static dim3 block_index() {
    return dim3(CUSIM_BUILTIN_BLOCK_IDX.x, CUSIM_BUILTIN_BLOCK_IDX.y, CUSIM_BUILTIN_BLOCK_IDX.z);
  }
  static dim3 dim_threads() {
    return dim3(CUSIM_BUILTIN_BLOCK_DIM.x, CUSIM_BUILTIN_BLOCK_DIM.y, CUSIM_BUILTIN_BLOCK_DIM.z);
  }
  static dim3 thread_index() {
    return dim3(CUSIM_BUILTIN_THREAD_IDX.x, CUSIM_BUILTIN_THREAD_IDX.y, CUSIM_BUILTIN_THREAD_IDX.z);
  }
  // True in a kernel launched with cudaLaunchCooperativeKernel, as on a GPU.
  static bool is_valid() { return ::cusim::dev::grid_is_valid(); }
  // A barrier of every thread of the grid. Without a cooperative launch it fails with "grid.sync()
  // needs cudaLaunchCooperativeKernel" (a GPU traps). The defaults name the caller's line.
  static void sync(const char *file = __builtin_FILE(), int line = __builtin_LINE()) {
    ::cusim::dev::grid_sync(file, line);
  }
};

inline grid_group this_grid() {
  return grid_group();
}

// Free functions on any group.
template <class Group> void sync(const Group &g) {
  g.sync();
}
template <class Group> auto thread_rank(const Group &g) -> decltype(g.thread_rank()) {
  return g.thread_rank();
}
template <class Group> auto group_size(const Group &g) -> decltype(g.num_threads()) {
  return g.num_threads();
}

} // namespace cooperative_groups

#endif // CUSIM_COOPERATIVE_GROUPS_H
