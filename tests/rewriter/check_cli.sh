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

# --prelude-only / --prelude-header (shared/sim/cusim.cmake's precompiled prelude): the text from
# the second line to the main file's first line becomes the header; where a file's text there is
# the header's, byte for byte, it is replaced by one #include line, and otherwise nothing changes.
pre() { # pre BODY-OF-THE-PRELUDE MAIN-LINE: a file as `c++ -E -include cusim_prelude.h` writes it
  printf '# 0 "in.cu"\n# 0 "<built-in>"\n# 0 "<command-line>"\n# 1 "p.h" 1 3\n%s\n# 0 "<command-line>" 2\n# 1 "in.cu"\n%s\n' "$1" "$2"
}
pre 'int prelude_decl;' '__global__ void k() {}' >pre.ii
pre 'int prelude_decl;' 'void h() { k<<<1, 1>>>(); }' >main.ii
pre 'int prelude_decm;' 'void h() { k<<<1, 1>>>(); }' >other.ii
check "--prelude-only: the prelude's text alone" 0 "" stderr.txt -- "$rewriter" --prelude-only pre.ii header.h
check "--prelude-only: the lines between" 0 "" stderr.txt -- \
  cmp header.h <(sed -n 2,6p pre.ii)
check "--prelude-only: no prelude" 1 "error: no prelude" stderr.txt -- \
  "$rewriter" --prelude-only in.cu none.h
check "--prelude-only with --prelude-header" 2 "exclude each other" stderr.txt -- \
  "$rewriter" --prelude-only --prelude-header=header.h pre.ii none.h
"$rewriter" main.ii main-plain.cpp
"$rewriter" other.ii other-plain.cpp
check "--prelude-header: the same text" 0 '^#include "header.h"$' main.cpp -- \
  "$rewriter" --prelude-header=header.h main.ii main.cpp
check "--prelude-header: the rest as without it" 0 "" stderr.txt -- \
  bash -c '[[ $(sed -n 1,2p main.cpp; tail -n +4 main.cpp) == "$(sed -n 1,2p main-plain.cpp; tail -n +8 main-plain.cpp)" && $(sed -n 3p main.cpp) == "#include \"header.h\"" ]]'
check "--prelude-header: one byte differs" 0 "" stderr.txt -- \
  bash -c '"$1" --prelude-header=header.h other.ii other.cpp && cmp other.cpp other-plain.cpp' _ "$rewriter"
check "--prelude-header: no such header" 0 "" stderr.txt -- \
  bash -c '"$1" --prelude-header=no-such.h main.ii nohdr.cpp && cmp nohdr.cpp main-plain.cpp' _ "$rewriter"
cp header.h 'odd "header\.h'
check "--prelude-header: a name that needs escaping" 0 '^#include "odd \\"header\\\\\.h"$' odd.cpp -- \
  "$rewriter" '--prelude-header=odd "header\.h' main.ii odd.cpp

[[ $failures == 0 ]] && echo "PASS: command line"
exit $((failures > 0))
