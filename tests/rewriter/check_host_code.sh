#!/usr/bin/env bash
# cusim-rewrite's host_code.c: in a checked build (CUSIM_CHECKED, no ThreadSanitizer) each
# host-only function of host_code/host_code.cu named marked_* (and main) gets
# __attribute__((no_sanitize("thread"))), each kept_* does not, and the output compiles as the
# build compiles it. Nothing is marked without CUSIM_CHECKED, under ThreadSanitizer, in a file
# that defines an operator or says `using namespace`.
set -euo pipefail
rewriter=$1 cxx=$2 include=$3 cases=$4 work=$5
mkdir -p "$work"
fail() {
  echo "FAIL: $*"
  exit 1
}
# rewrite NAME OUT FLAGS...: preprocessed as cusim.cmake's step does it, then rewritten.
rewrite() {
  local name=$1 out=$2
  shift 2
  "$cxx" -x c++ -std=gnu++17 -E -DCUSIM_PREPROCESS "$@" -isystem "$include" \
    -include cusim_prelude.h "$cases/$name.cu" -o "$work/$out.ii"
  "$rewriter" "$work/$out.ii" "$work/$out.cpp"
}
marked() { # OUT NAME: the definition of NAME carries the attribute
  grep -q -E "no_sanitize\(\"thread\"\)\)\) [^;{}]*\<$2\(" "$work/$1.cpp"
}
count_marked() { # the case files' functions marked (the headers have marks of their own)
  grep -c -E "no_sanitize\(\"thread\"\)\)\) [^;{}]*\<(marked_[a-z_]+|kept_[a-z_]+|main)\(" "$work/$1.cpp" || true
}

rewrite host_code checked -DCUSIM_CHECKED=1
names=$(grep -o -E '\<(marked|kept)_[a-z_]+\(' "$cases/host_code.cu" | tr -d '(' | sort -u)
checked=0
for name in $names main; do
  checked=$((checked + 1))
  case $name in
    kept_*) ! marked checked "$name" || fail "$name is marked: it must keep its instrumentation" ;;
    *) marked checked "$name" || fail "$name is not marked" ;;
  esac
done
[[ $(count_marked checked) == $(grep -c -E '^(static )?(inline )?[a-z]+ (marked_|main)' "$cases/host_code.cu") ]] ||
  fail "$(count_marked checked) functions marked, not the marked_* and main only"
# The attribute where the build puts it: the output compiles (the build's own macros).
"$cxx" -x c++ -std=gnu++17 -fsyntax-only -fsanitize=thread -Werror=attributes -D__global__= -D__device__= \
  -D__host__= -isystem "$include" "$work/checked.cpp" || fail "the marked output does not compile"

rewrite host_code unchecked
[[ $(count_marked unchecked) == 0 ]] || fail "marked without CUSIM_CHECKED (an unchecked build)"
rewrite host_code tsan -DCUSIM_CHECKED=1 -fsanitize=thread
[[ $(count_marked tsan) == 0 ]] || fail "marked under ThreadSanitizer, which checks host code"
for name in host_code_operator host_code_using; do
  rewrite "$name" "$name" -DCUSIM_CHECKED=1
  [[ $(count_marked "$name") == 0 ]] || fail "$name.cu: marked, but the file rules it out"
done
echo "PASS: $checked functions as expected in a checked build; none marked unchecked, under" \
  "ThreadSanitizer, with an operator or with using namespace"
