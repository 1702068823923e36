#!/usr/bin/env bash
# expect-exit.sh CODE REGEX COMMAND...   pass when COMMAND exits with CODE and its output
# (stdout and stderr together) matches the extended REGEX.
set -u
want=${1:?code} pattern=${2:?regex}
shift 2
output=$("$@" 2>&1)
status=$?
printf '%s\n' "$output"
if [ "$status" -ne "$want" ]; then
  echo "expect-exit: wanted exit $want, got $status from: $*"
  exit 1
fi
if ! grep -Eq -- "$pattern" <<<"$output"; then
  echo "expect-exit: output does not match /$pattern/"
  exit 1
fi
echo "expect-exit: OK (exit $status, output matches)"
