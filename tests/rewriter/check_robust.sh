#!/usr/bin/env bash
# Robustness: hostile and huge inputs must end in exit status 0 or 1 (never a crash, never a
# hang) and, when rewritten, keep every line: the output has exactly one more line (the #line)
# than the input. Inputs are made here, deterministically; the fuzz corpus is fed too.
set -uo pipefail
rewriter=$1 corpus=$2 work=$3
mkdir -p "$work"
cd "$work" || exit 1
export LC_ALL=C
failures=0
repeat() { # repeat COUNT TEXT: TEXT COUNT times
  awk -v n="$1" -v s="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'
}
make_inputs() {
  printf '/* never closed <<< __shared__ int x' >unterminated_comment.cu
  printf 'void f() { const char *s = "never closed <<<\n k<<<1,1>>>(0); }\n' >unterminated_string.cu
  printf 'void f() { auto s = R"abc( never closed )ab" k<<<1,1>>>(0); }\n' >unterminated_raw.cu
  printf 'void f() { auto s = R"0123456789abcdefXY(too long a delimiter)0123456789abcdefXY"; }\n' >raw_long.cu
  printf "void f() { char c = '\\\\" >backslash_at_end.cu
  printf '#define X \\' >directive_at_end.cu
  printf 'k<<<' >launch_at_end.cu
  printf '>>> <<< >>> <<<<<< >>>>>> ((( ]]] }}} {{{ ,,, ;;;\n' >unbalanced.cu
  printf '__global__ void k(int &' >global_at_end.cu
  printf 'void f() { __shared__' >shared_at_end.cu
  printf 'void f() { extern __shared__ float x[' >extern_at_end.cu
  printf '\0\0\0k<<<\0>>>(\0);\n\r\r\n\\\n\\' >nul_bytes.cu
  awk 'BEGIN { srand(7); for (i = 0; i < 300000; i++) printf "%c", int(rand() * 256) }' >random.cu
  awk 'BEGIN { srand(11); split("k < > ( ) [ ] { } , ; 0 NULL __shared__ __global__ extern & && :: \" '\'' / * # \\ \n R\"x( )x\" int x", t, " ");
               for (i = 0; i < 200000; i++) printf "%s%s", t[int(rand() * 30) + 1], (rand() < 0.3 ? " " : "") }' >token_soup.cu
  # Inline PTX in device code (preprocessed: the linemarker), its template made of PTX's pieces.
  awk 'BEGIN { srand(13); n = split("mov.u32|add.s64|shl.b32|bfe.u32|prmt.b32|lop3.b32|mov.b64|.reg|.b32|.pred|%0|%1|%2|%9|%%laneid|%tid.x|%%r|t|r<4>|r1|{|}|;|,|@p|!|0x1F|-5|0f3F800000|//|/*|*/|\\\"|\\\\|<|>|:|%|mov.u32 %0, %%laneid;|{ .reg .b16 a, b; mov.b32 {a, b}, %1; mov.b32 %0, {b, a}; }|add.u32 %0, %1, %2;", t, "|");
    printf "# 1 \"asm.cu\"\n";
    for (i = 0; i < 3000; i++) {
      printf "__global__ void k%d(unsigned *o, unsigned w) { unsigned x; asm volatile(\"", i;
      m = int(rand() * 12); for (j = 0; j < m; j++) printf "%s%s", t[int(rand() * n) + 1], (rand() < 0.5 ? " " : "");
      printf "\" : \"=r\"(x) : \"r\"(w), \"n\"(3) : \"memory\");\n o[0] = x; }\n" } }' >inline_ptx_soup.cu
  # Each of these would take quadratic time with a naive scan.
  repeat 100000 'k<<<1,1>>>(' >nested_launches.cu
  repeat 100000 '__shared__ ' >many_shared.cu
  repeat 100000 '__global__ void k(' >nested_kernels.cu
  repeat 100000 'a<' >open_angles.cu; repeat 100000 '>' >>open_angles.cu; printf '<<<1,1>>>()' >>open_angles.cu
  repeat 100000 '{' >deep_braces.cu; printf '__shared__ int x;' >>deep_braces.cu
  repeat 100000 'x) {' >many_functions.cu
  repeat 100000 '<<<' >many_launch_starts.cu
  # A big, ordinary file: 400,000 lines of launches, shared declarations and kernels.
  repeat 100000 $'__global__ void k(float *x, int n) {\n  __shared__ float tile[32][33];\n  k<<<dim3(n / 256 + 1), 256, 0, 0>>>(x, 0);\n}\n' >big.cu
}
make_inputs
for input in ./*.cu "$corpus"/*; do
  [[ -f $input ]] || continue
  status=0
  # (300 s: a hang, not a slow run; big.cu takes 2 s of CPU under AddressSanitizer, and the
  # sanitizer presets may give this test a tenth of a core: tests/rewriter/CMakeLists.txt)
  timeout 300 "$rewriter" "$input" out.cpp 2>stderr.txt >/dev/null || status=$?
  if [[ $status != 0 && $status != 1 ]]; then
    echo "FAIL: $input: exit status $status (crash or hang)"
    head -c 2000 stderr.txt
    failures=$((failures + 1))
    continue
  fi
  if [[ $status == 0 ]]; then
    lines_in=$(tr -cd '\n' <"$input" | wc -c)
    lines_out=$(tr -cd '\n' <out.cpp | wc -c)
    if [[ $lines_out != $((lines_in + 1)) ]]; then
      echo "FAIL: $input: $lines_in newlines in, $lines_out out (want $((lines_in + 1)))"
      failures=$((failures + 1))
      continue
    fi
  fi
  echo "ok: $input (exit status $status)"
done
[[ $failures == 0 ]] && echo "PASS: every input ended cleanly"
exit $((failures > 0))
