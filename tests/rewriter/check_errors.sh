#!/usr/bin/env bash
# Error test: errors/NAME.cu lists the errors it must produce as "// expect-error: L:C: message"
# lines, in order. The rewriter must print exactly those (as NAME.cu:L:C: error: message), exit
# with status 1 and leave no output file behind.
set -euo pipefail
rewriter=$1 cases=$2 name=$3 work=$4
mkdir -p "$work"
cd "$cases"
expected=$(sed -n "s/^\/\/ expect-error: \([0-9]*:[0-9]*\): /$name.cu:\1: error: /p" "$name.cu")
output=$work/$name.cpp
echo stale >"$output" # a failed run must not leave an old output looking fresh
status=0
"$rewriter" "$name.cu" "$output" 2>"$work/$name.stderr" || status=$?
failed=0
if [[ $status != 1 ]]; then
  echo "FAIL: exit status $status, want 1"
  failed=1
fi
if [[ -e $output ]]; then
  echo "FAIL: $output exists after a failed rewrite"
  failed=1
fi
if ! diff -u <(printf '%s\n' "$expected") "$work/$name.stderr"; then
  echo "FAIL: the errors differ from the expect-error lines of $name.cu (- expected, + got)"
  failed=1
fi
[[ $failed == 0 ]] && echo "PASS: $name.cu is rejected with the expected errors"
exit $failed
