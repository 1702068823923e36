#!/usr/bin/env bash
# check_rewrite_cache.sh REWRITER CXX INCLUDE_DIR WORK: shared/sim/bin/cusim-rewrite-step --cache
# gives, hit or miss, exactly what the steps give without the cache, in any copy of a tree; and it
# misses whenever something the steps read changed (a header, one the device pass alone reads, a
# flag, a new header beside the source that shadows one found elsewhere), and keeps nothing it
# cannot give back right (a folder's name in the text, __DATE__, a failed step).
set -euo pipefail
rewriter=$1 cxx=$2 include_dir=$3 work=$4
step=$(cd "$(dirname "$0")/../../shared/sim/bin" && pwd)/cusim-rewrite-step
rm -rf "$work"
mkdir -p "$work"
export CUSIM_REWRITE_CACHE_DIR=$work/cache CUSIM_REWRITE_CACHE_LOG=$work/log
unset CCACHE_DISABLE
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# A tree: a kernel, a header it includes, and a header that only nvcc's device pass reads.
make_tree() { # ROOT
  mkdir -p "$1/src/inc" "$1/build/obj"
  echo '#define SHADOWED 1' >"$1/src/inc/shadowed.h"
  cat >"$1/src/prog.cu" <<'EOF'
#include "table.h"
#include "shadowed.h"
__global__ void scale(float *x) { x[threadIdx.x] *= FACTOR; }
void run(float *x) { scale<<<1, 32>>>(x); }
EOF
  cat >"$1/src/table.h" <<'EOF'
#define FACTOR 2.0f
#ifdef __CUDA_ARCH__
#include "device_only.h"
#endif
EOF
  echo '__device__ int device_only_value = 1;' >"$1/src/device_only.h"
}
# step ROOT NAME [--no-cache] [FLAGS...]: rewrite ROOT/src/NAME.cu into ROOT/build/obj/NAME.cpp
step() {
  local root=$1 name=$2 cache=(--cache ccache "$1/src" "$1/build")
  shift 2
  if [ "${1:-}" = --no-cache ]; then
    cache=()
    shift
  fi
  (cd "$root/build" && "$step" "${cache[@]}" "$root/build/obj/$name.cpp" "$root/build/obj/$name.ii" \
    "$root/build/obj/$name.device.ii" "$root/src/$name.cu" "$rewriter" -- "$cxx" -std=gnu++17 \
    -x c++ -E -fno-working-directory -DCUSIM_PREPROCESS "$@" -iquote "$root/src" -iquote "$root/src/inc" \
    -isystem "$include_dir" "-include$include_dir/cusim_prelude.h")
}
# expect WHAT ROOT NAME [FLAGS...]: a cached step logs WHAT, and its .cpp and .d are those of the
# same step without the cache.
expect() {
  local what=$1 root=$2 name=$3
  shift 3
  : >"$work/log"
  step "$root" "$name" "$@" || { fail "$name in $root: the cached step failed"; return; }
  cp "$root/build/obj/$name.cpp" "$work/cached.cpp"
  cp "$root/build/obj/$name.cpp.d" "$work/cached.d"
  local got
  got=$(cut -d' ' -f1 "$work/log")
  [ "$got" = "$what" ] || fail "$name in $root ($*): '$got', '$what' expected"
  step "$root" "$name" --no-cache "$@"
  cmp -s "$root/build/obj/$name.cpp" "$work/cached.cpp" ||
    fail "$name in $root ($what): its .cpp is not what the steps give"
  cmp -s "$root/build/obj/$name.cpp.d" "$work/cached.d" ||
    fail "$name in $root ($what): its depfile is not what the steps give"
  grep -q -F "$root/src/$name.cu" "$work/cached.cpp" ||
    fail "$name in $root ($what): its line markers do not name the file in this tree"
}

make_tree "$work/a"
cp -a "$work/a" "$work/b"
expect miss "$work/a" prog
expect hit "$work/a" prog
expect hit "$work/b" prog # another copy, elsewhere: its own paths back
echo '#define OTHER 1' >>"$work/b/src/table.h"
expect miss "$work/b" prog # a header changed
echo '__device__ int device_only_other = 2;' >>"$work/b/src/device_only.h"
expect miss "$work/b" prog # a header only the device pass reads changed
expect miss "$work/b" prog -DEXTRA=1 # a flag
echo '#define SHADOWED 2' >"$work/b/src/shadowed.h"
expect miss "$work/b" prog -DEXTRA=1 # a new header beside the source shadows src/inc/shadowed.h
expect hit "$work/b" prog -DEXTRA=1
# One entry a key (the tree's folders are not in it): b's last entry is not a's, so a misses once.
expect miss "$work/a" prog
expect hit "$work/a" prog

# Not kept: the text names the tree's folder (a string), a time macro.
cat >"$work/a/src/names.cu" <<'EOF'
const char *here = __FILE__;
__global__ void k() {}
EOF
expect uncached "$work/a" names
expect uncached "$work/a" names
cat >"$work/a/src/stamp.cu" <<'EOF'
const char *when = __DATE__;
__global__ void k() {}
EOF
expect uncached "$work/a" stamp

# A failed step fails the build and keeps nothing.
printf '#include "missing.h"\n__global__ void k() {}\n' >"$work/a/src/broken.cu"
: >"$work/log"
if step "$work/a" broken 2>/dev/null; then fail "a missing header did not fail the step"; fi
[ ! -s "$work/log" ] || fail "a failed step was logged: $(cat "$work/log")"

# CCACHE_DISABLE: the steps alone.
: >"$work/log"
CCACHE_DISABLE=1 step "$work/a" prog
[ ! -s "$work/log" ] || fail "CCACHE_DISABLE still used the cache: $(cat "$work/log")"

[ $failures -eq 0 ] || exit 1
echo "the rewrite cache: hits and misses give the steps' own output"
