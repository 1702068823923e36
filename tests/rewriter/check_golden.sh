#!/usr/bin/env bash
# Golden test: rewrites golden/NAME.cu and compares the result with golden/NAME.cpp, byte for byte.
# With WB_UPDATE_GOLDEN=1 it rewrites the expected file instead (review the diff before committing).
set -euo pipefail
rewriter=$1 cases=$2 name=$3 work=$4
mkdir -p "$work"
cd "$cases" # the #line directive names the input as given: NAME.cu
"$rewriter" "$name.cu" "$work/$name.cpp"
if [[ ${WB_UPDATE_GOLDEN:-0} == 1 ]]; then
  cp "$work/$name.cpp" "$name.cpp"
  echo "updated $cases/$name.cpp"
  exit 0
fi
if ! diff -u "$name.cpp" "$work/$name.cpp"; then
  echo "FAIL: the rewriter's output for $name.cu differs from $name.cpp (diff above: - expected, + got)"
  exit 1
fi
echo "PASS: $name.cu rewrites to $name.cpp"
