#!/usr/bin/env bash
# check.sh nvcc NVCC FILE.cu
# check.sh sim CXX SIM_INCLUDE_DIR CUSIM_REWRITE FILE.cu
# A must-not-compile snippet: passes only if the compiler REJECTS it. In sim mode the simulator's
# build (preprocess, then cusim-rewrite) must reject it with the message of the snippet's
# '// expect: REGEX' line, at the line marked '// error-here'.
set -u
mode=$1
shift
fail() {
  echo "nocompile: $*" >&2
  exit 1
}
case "$mode" in
nvcc)
  # The learner's verdict (shared/cmake/nvcc-check.sh runs nvcc's two front ends side by side)
  # must reject it, with the very lines nvcc gives when it runs its steps itself (WB_NVCC_SPLIT=0).
  # tests/gpu/validate.sh compiles each snippet with a plain `nvcc -c` too, except where it takes
  # a build's lessons (--lessons-from, CI): there it leaves the corpus to these tests.
  nvcc=$1 file=$2
  check=$(dirname "$0")/../../shared/cmake/nvcc-check.sh
  # Both runs in a temporary folder of their own, which must be empty after them: a rejected
  # snippet is where a compiler step leaves its files behind (cicc's ..lgenfe.bc).
  temporary=$(mktemp -d)
  trap 'rm -rf "$temporary"' EXIT
  split=$(TMPDIR=$temporary bash "$check" "$nvcc" "$file" 2>&1)
  split_status=$?
  plain=$(TMPDIR=$temporary WB_NVCC_SPLIT=0 bash "$check" "$nvcc" "$file" 2>&1)
  plain_status=$?
  echo "$split"
  left=$(ls -A "$temporary")
  [ -z "$left" ] || fail "nvcc's verdict left files in its temporary folder: $(echo $left)"
  [ $plain_status -eq 1 ] || fail "nvcc accepted $file (status $plain_status)"
  [ $split_status -eq 1 ] || fail "the learner's check (both front ends at once) accepted $file"
  [ "$split" = "$plain" ] || fail "the learner's check differs from nvcc's own run:
$plain"
  echo "nvcc rejects $file, as expected, and the learner's check says the same"
  ;;
sim)
  cxx=$1 include_dir=$2 rewriter=$3 file=$4
  expect=$(sed -n 's|^// expect: ||p' "$file" | head -n 1)
  line=$(grep -n '// error-here' "$file" | head -n 1 | cut -d: -f1)
  [[ -n "$expect" && -n "$line" ]] || fail "$file needs '// expect: REGEX' and '// error-here'"
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  "$cxx" -x c++ -std=gnu++17 -E -DCUSIM_PREPROCESS -isystem "$include_dir" \
    -include cusim_prelude.h "$file" -o "$work/in.ii" || fail "preprocessing $file failed"
  if "$rewriter" "$work/in.ii" "$work/out.cpp" 2>"$work/errors"; then
    fail "the simulator accepted $file"
  fi
  cat "$work/errors"
  grep -E "^$file:$line:[0-9]+: error: .*$expect.*\(nvcc rejects this too\)" "$work/errors" \
    >/dev/null || fail "expected '$expect' at $file:$line"
  ;;
*) fail "unknown mode $mode" ;;
esac
