#!/usr/bin/env bash
# Compile test: rewrites DIR/NAME.cu and compiles the result with the C++ compiler against the
# stub header (stub/cusim_stub.h), not the real runtime.
#   mode syntax: must compile cleanly (-Wall -Wextra -Werror; static_asserts check __LINE__);
#                or, when the file has "// expect-compile-error: L", must fail with an error
#                reported at NAME.cu:L (proof that #line points the compiler at the .cu file).
#   mode run:    must build and run, printing exactly DIR/NAME.expected.
set -euo pipefail
rewriter=$1 cxx=$2 stub=$3 cases=$4 name=$5 mode=$6 work=$7
mkdir -p "$work"
cd "$cases"
"$rewriter" "$name.cu" "$work/$name.cpp"
flags=(-std=c++17 -Wall -Wextra -Werror -Wno-unused-parameter -Wno-unused-but-set-variable
  -I "$stub" -include cusim_stub.h)
if [[ $mode == run ]]; then
  "$cxx" "${flags[@]}" -o "$work/$name" "$work/$name.cpp"
  "$work/$name" >"$work/$name.out"
  if ! diff -u "$name.expected" "$work/$name.out"; then
    echo "FAIL: the output of the rewritten $name.cu differs from $name.expected"
    exit 1
  fi
  echo "PASS: the rewritten $name.cu runs and prints $name.expected"
  exit 0
fi
line=$(sed -n 's/^\/\/ expect-compile-error: \([0-9]*\)$/\1/p' "$name.cu")
status=0
"$cxx" "${flags[@]}" -fsyntax-only "$work/$name.cpp" 2>"$work/$name.stderr" || status=$?
if [[ -z $line ]]; then
  cat "$work/$name.stderr"
  [[ $status == 0 ]] || { echo "FAIL: the rewritten $name.cu does not compile"; exit 1; }
  echo "PASS: the rewritten $name.cu compiles"
  exit 0
fi
cat "$work/$name.stderr"
if [[ $status == 0 ]]; then
  echo "FAIL: the rewritten $name.cu compiled; it should fail at line $line"
  exit 1
fi
if ! grep -q "^$name\.cu:$line:[0-9]*: error" "$work/$name.stderr"; then
  echo "FAIL: no error reported at $name.cu:$line"
  exit 1
fi
echo "PASS: the compiler reports the error at $name.cu:$line"
