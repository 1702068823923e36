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
  nvcc=$1 file=$2
  if "$nvcc" -c -arch=sm_90 "$file" -o /dev/null; then fail "nvcc accepted $file"; fi
  echo "nvcc rejects $file, as expected"
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
