#!/usr/bin/env bash
# The command line: usage errors exit 2, input errors exit 1, both spellings of the output,
# standard input and output, and file names that need escaping in the #line directive.
set -uo pipefail
rewriter=$1 work=$2
mkdir -p "$work"
cd "$work" || exit 1
failures=0
check() { # check DESCRIPTION WANTED_STATUS PATTERN FILE -- COMMAND...
  local description=$1 wanted=$2 pattern=$3 file=$4
  shift 5
  local status=0
  "$@" >stdout.txt 2>stderr.txt || status=$?
  if [[ $status != "$wanted" ]]; then
    echo "FAIL: $description: exit status $status, want $wanted"
    cat stderr.txt
    failures=$((failures + 1))
  elif [[ -n $pattern ]] && ! grep -q -e "$pattern" "$file"; then
    echo "FAIL: $description: '$pattern' not in $file:"
    cat "$file"
    failures=$((failures + 1))
  else
    echo "ok: $description"
  fi
}
printf '__global__ void k() {}\nvoid h() { k<<<1, 1>>>(); }\n' >in.cu

check "no arguments" 2 "^usage: cusim-rewrite" stderr.txt -- "$rewriter"
check "--help" 0 "^usage: cusim-rewrite" stdout.txt -- "$rewriter" --help
check "one argument" 2 "no output file given" stderr.txt -- "$rewriter" in.cu
check "-o without a name" 2 "-o needs a file name" stderr.txt -- "$rewriter" in.cu -o
check "unknown option" 2 "unknown option --frobnicate" stderr.txt -- "$rewriter" --frobnicate in.cu out.cpp
check "three files" 2 "unexpected argument third" stderr.txt -- "$rewriter" in.cu out.cpp third
check "missing input" 1 "^missing.cu: error: cannot open" stderr.txt -- "$rewriter" missing.cu out.cpp
check "unwritable output" 1 "error: cannot write" stderr.txt -- "$rewriter" in.cu no/such/dir/out.cpp
check "INPUT OUTPUT" 0 "" stderr.txt -- "$rewriter" in.cu out1.cpp
check "INPUT -o OUTPUT" 0 "" stderr.txt -- "$rewriter" in.cu -o out2.cpp
check "-o OUTPUT INPUT" 0 "" stderr.txt -- "$rewriter" -o out3.cpp in.cu
check "the output" 0 '^#line 1 "in.cu"$' out1.cpp -- cmp out1.cpp out2.cpp
check "the output (2)" 0 "cusim::launch(::cusim::config(1, 1), \"k\"" out3.cpp -- cmp out1.cpp out3.cpp
check "standard input and output" 0 '^#line 1 "<stdin>"$' stdout.txt -- \
  bash -c '"$1" - - <in.cu' _ "$rewriter"
cp in.cu 'odd "name\.cu'
check "a name that needs escaping" 0 '^#line 1 "odd \\"name\\\\\.cu"$' out4.cpp -- \
  "$rewriter" 'odd "name\.cu' out4.cpp

# --device-warnings (nvcc-sim with -Werror): device-only definitions, and only they, between
# _Pragma("GCC diagnostic push") and "pop", with the lines kept; a bad option is a usage error.
printf '# 1 "w.cu"\n__global__ void k(int *o, int n) {\n  o[0] = 1;\n}\n__host__ __device__ int b(int x) { return x; }\nint h(int x) { return x; }\n' >w.cu
check "--device-warnings: a kernel" 0 '^_Pragma("GCC diagnostic push") .*_Pragma("GCC diagnostic warning \\"-Wsign-compare\\"") .*_Pragma("GCC diagnostic ignored \\"-Wall\\"") .*__global__ void k' w.cpp -- \
  "$rewriter" --device-warnings=-Wall,-Wsign-compare w.cu w.cpp
check "--device-warnings: the pop after the body" 0 '^} .*_Pragma("GCC diagnostic pop")$' w.cpp -- \
  bash -c '[[ $(grep -c Pragma w.cpp) == 2 && $(wc -l <w.cpp) == 7 ]]'
check "--device-warnings: host code untouched" 0 '^__host__ __device__ int b(int x) { return x; }$' w.cpp -- \
  grep -q '^int h(int x) { return x; }$' w.cpp
check "--device-warnings: a bad option" 2 "takes -W options separated by commas" stderr.txt -- \
  "$rewriter" '--device-warnings=-Wall,"x' w.cu w.cpp

[[ $failures == 0 ]] && echo "PASS: command line"
exit $((failures > 0))
