#!/usr/bin/env bash
# nvcc-sim --unchecked (issue 27): usage: nvcc_sim_unchecked_test.sh NVCC_SIM CASES_CU WORK_DIR
# (CUSIM_BUILD_DIR names the CMake build whose simulator nvcc-sim uses.)
# The default build reports a read past an array; the --unchecked build does not, and says once,
# in one line, what goes unreported; a correct program prints the same both ways.
set -uo pipefail

nvcc_sim=$1
cases=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

"$nvcc_sim" -O2 -o checked "$cases" || fail "the default build failed"
"$nvcc_sim" --unchecked -O2 -o unchecked "$cases" || fail "the --unchecked build failed"
[[ -x checked && -x unchecked ]] || exit 1

note='^cusim: note: nvcc-sim --unchecked built this program without the memory checker: races '
note+='between threads .* go unreported, .* reads of uninitialized __shared__ memory, '
note+='out-of-bounds accesses that stay in mapped memory and out-of-range implicit float-to-integer '
note+="conversions \\(x86's answer, not the GPU's\\), so a wrong answer may come with no message$"

# The read past the end: stopped by the checker, silent without it (but for the one note).
out=$(./checked past-end 2>&1)
if grep -q '^past-end: cudaErrorIllegalAddress$' <<<"$out" &&
  grep -q '^cusim: error: out-of-bounds read at unchecked_cases.cu:14' <<<"$out"; then
  echo "ok: the default build reports the read past the end"
else
  fail "the default build did not report the read past the end: $out"
fi
out=$(./unchecked past-end 2>&1)
status=$?
if [[ $status -eq 0 ]] && grep -q '^past-end: cudaSuccess$' <<<"$out" &&
  [[ $(grep -c '^cusim:' <<<"$out") -eq 1 ]] && grep -Eq "$note" <<<"$out"; then
  echo "ok: --unchecked runs it unreported, with exactly one note saying what goes unreported"
else
  fail "--unchecked: expected success and the one note (status $status): $out"
fi

# A correct program: the same output checked and unchecked (the note aside).
checked_out=$(./checked correct 2>&1)
unchecked_out=$(./unchecked correct 2>&1)
if grep -q '^correct: cudaSuccess, ' <<<"$checked_out" &&
  ! grep -q '^cusim:' <<<"$checked_out" &&
  [[ "$(grep -v '^cusim: note:' <<<"$unchecked_out")" == "$checked_out" ]] &&
  [[ $(grep -c '^cusim:' <<<"$unchecked_out") -eq 1 ]]; then
  echo "ok: a correct program gives the same results both ways"
else
  fail "correct: checked and unchecked differ: [$checked_out] [$unchecked_out]"
fi

if [[ $failures -ne 0 ]]; then
  echo "FAIL nvcc_sim_unchecked: $failures checks failed"
  exit 1
fi
echo "PASS nvcc_sim_unchecked"
