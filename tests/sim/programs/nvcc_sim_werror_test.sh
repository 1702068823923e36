#!/usr/bin/env bash
# nvcc-sim with the host compiler's warnings as errors (issue 27): usage:
# nvcc_sim_werror_test.sh NVCC_SIM PROGRAM_CU WORK_DIR (CUSIM_BUILD_DIR names the CMake build
# whose simulator nvcc-sim uses). nvcc builds werror_device_warnings.cu with
# -Xcompiler -Wall,-Wextra,-Werror (its host compiler never sees device-only bodies), and fails
# at the user's line when host code or a __host__ __device__ function has the warning; nvcc-sim
# must do the same. nvcc's own -Werror KIND is accepted with one note.
set -uo pipefail

nvcc_sim=$1
program=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
flags=(-Xcompiler -Wall,-Wextra,-Werror)
name=${program##*/}

if out=$("$nvcc_sim" "${flags[@]}" -o werror "$program" 2>&1) && [[ -x werror ]]; then
  run=$(./werror 2>&1)
  if grep -q '^PASS werror_device_warnings' <<<"$run"; then
    echo "ok: device-only code's warnings do not fail a -Werror build, and the program passes"
  else
    fail "the -Werror build runs wrong: $run"
  fi
else
  fail "the -Werror build failed (nvcc builds it): $out"
fi

for case in HOST_WARNING HOST_DEVICE_WARNING; do
  case $case in
  HOST_WARNING) line=$(grep -n 'error: host code keeps -Werror' "$program" | cut -d: -f1) ;;
  *) line=$(grep -n 'error: host code too' "$program" | cut -d: -f1) ;;
  esac
  if out=$("$nvcc_sim" "${flags[@]}" "-D$case" -o "werror-$case" "$program" 2>&1); then
    fail "-D$case: the build succeeded; nvcc fails it at line $line"
  elif grep -Eq "$name:$line:[0-9]+: error: .*\[-Werror=sign-compare\]" <<<"$out"; then
    echo "ok: -D$case: host code keeps -Werror, and the error names line $line"
  else
    fail "-D$case: no -Werror=sign-compare error at line $line: $out"
  fi
done

if out=$("$nvcc_sim" -Werror all-warnings -o front-end "$program" 2>&1) &&
  grep -q "^nvcc-sim: note: ignored (nvcc's own warnings are not reproduced): -Werror all-warnings$" <<<"$out"; then
  echo "ok: nvcc's own -Werror all-warnings is accepted with one note"
else
  fail "nvcc's -Werror all-warnings: $out"
fi

if [[ $failures -ne 0 ]]; then
  echo "FAIL nvcc_sim_werror: $failures checks failed"
  exit 1
fi
echo "PASS nvcc_sim_werror"
