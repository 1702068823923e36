#!/usr/bin/env bash
# unit.sim.nvrtc.module_cache: NVRTC's module cache (runtime/nvrtc.cpp, CUSIM_NVRTC_CACHE).
# usage: nvrtc_cache_test.sh PROGRAM WORK_DIR (PROGRAM: sim_nvrtc_cases)
# The same kernel strings compiled by a second run take the first run's modules: no new entry
# (the temporary folder's name is out of the key) and no compile step (the compiler, a wrapper
# that logs its calls, is not asked to compile); a compile error still names the program's own
# lines; a damaged entry is compiled again, never loaded; unset, nothing is kept.
set -u -o pipefail
program=$1
work=$2
rm -rf "$work" && mkdir -p "$work/bin" || exit 1
failures=0
check() { # DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then echo "ok   - $what"; else echo "FAIL - $what"; failures=$((failures + 1)); fi
}
real_cxx=$(command -v c++) || { echo "no c++ on PATH"; exit 1; }
printf '#!/bin/sh\necho "$*" >>"%s"\nexec "%s" "$@"\n' "$work/calls" "$real_cxx" >"$work/bin/c++"
chmod +x "$work/bin/c++"
export CUSIM_CXX=$work/bin/c++
compiles() { grep -c -- ' -c ' "$work/calls" 2>/dev/null || true; }
entries() { find "$work/cache" -name '*.so' 2>/dev/null | wc -l; }

CUSIM_NVRTC_CACHE=$work/cache "$program" seed >"$work/first.txt" 2>&1
check "first run passes" grep -q "seed kernel: 0 of 100003 wrong" "$work/first.txt"
first_entries=$(entries)
first_compiles=$(compiles)
check "first run keeps its modules ($first_entries)" test "$first_entries" -gt 0
check "first run compiles ($first_compiles)" test "$first_compiles" -gt 0
: >"$work/calls"
CUSIM_NVRTC_CACHE=$work/cache "$program" seed >"$work/second.txt" 2>&1
check "second run passes" grep -q "seed kernel: 0 of 100003 wrong" "$work/second.txt"
check "second run adds no entry ($(entries))" test "$(entries)" -eq "$first_entries"
check "second run compiles nothing ($(compiles))" test "$(compiles)" -eq 0
check "second run prints what the first did" cmp -s "$work/first.txt" "$work/second.txt"

CUSIM_NVRTC_CACHE=$work/cache "$program" compile_error >"$work/error.txt" 2>&1
check "a compile error names the program's line, cache on" \
  grep -q "broken.cu(3): error: .*'undeclared_name'" "$work/error.txt"
check "a compile error: no folder of the simulator's in the log" \
  bash -c '! grep -q -e /cusim-nvrtc "$1"' _ "$work/error.txt"

for entry in "$work"/cache/*.so; do printf 'not a module' >"$entry"; done
: >"$work/calls"
CUSIM_NVRTC_CACHE=$work/cache "$program" seed >"$work/damaged.txt" 2>&1
check "damaged entries: the run still passes" grep -q "seed kernel: 0 of 100003 wrong" "$work/damaged.txt"
check "damaged entries: compiled again ($(compiles))" test "$(compiles)" -gt 0

rm -rf "$work/cache"
(unset CUSIM_NVRTC_CACHE && "$program" seed >"$work/off.txt" 2>&1)
check "unset: the run passes" grep -q "seed kernel: 0 of 100003 wrong" "$work/off.txt"
check "unset: nothing kept" test ! -e "$work/cache"
[ $failures -eq 0 ] && echo "nvrtc module cache: all checks passed"
exit $((failures > 0))
