#!/usr/bin/env bash
# unit.sim.prelude_pch: every lesson solution's rewritten .cu in the build (BUILD/lessons/*) starts
# with `#include "HEADER"` in place of the forced prelude's text (shared/sim/cusim.cmake), and
# HEADER has its precompiled HEADER.gch beside it. A prelude whose text no longer matches the
# header's (flags that differ between the two preprocessing steps) fails here, not silently slow.
set -uo pipefail
build=$1
shopt -s nullglob
files=("$build"/lessons/*/*.solution.sim.cusim/*.cpp)
if ((${#files[@]} == 0)); then
  echo "FAIL: no rewritten lesson solution in $build/lessons (build them first)"
  exit 1
fi
failures=0
for file in "${files[@]}"; do
  line=$(sed -n 3p "$file")
  header=${line#\#include \"}
  header=${header%\"}
  if [[ $line != '#include "'*'/cusim_prelude_text.h"' ]]; then
    echo "FAIL: ${file#"$build"/}: the prelude's text is not the precompiled header's"
    failures=$((failures + 1))
  elif [[ ! -s $header.gch ]]; then
    echo "FAIL: ${file#"$build"/}: $header.gch is missing"
    failures=$((failures + 1))
  fi
done
((failures == 0)) && echo "PASS: ${#files[@]} lesson programs include the precompiled prelude"
exit $((failures > 0))
