#!/usr/bin/env bash
# Checks shared/sim/bin/nvcc-sim end to end: usage: nvcc_sim_driver_test.sh NVCC_SIM PROGRAMS_DIR WORK_DIR
# Builds programs with nvcc command lines, runs them, and checks the driver's errors.
set -uo pipefail

nvcc_sim=$1
programs=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
# Standalone use: no CMake build to borrow, the simulator is built into this cache.
unset CUSIM_BUILD_DIR
export XDG_CACHE_HOME="$work/cache"

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

expect_pass() { # name, then the command
  local name=$1
  shift
  local output
  if ! output=$("$@" 2>&1); then
    fail "$name: exit status $?: $output"
  elif ! grep -q '^PASS' <<<"$output"; then
    fail "$name: no PASS line: $output"
  else
    echo "ok: $name"
  fi
}

expect_error() { # name, pattern, then the command
  local name=$1 pattern=$2
  shift 2
  local output status
  output=$("$@" 2>&1)
  status=$?
  if [[ $status -eq 0 ]]; then
    fail "$name: succeeded, expected an error"
  elif ! grep -Eq -- "$pattern" <<<"$output"; then
    fail "$name: error did not match '$pattern': $output"
  else
    echo "ok: $name"
  fi
}

cd "$work" || exit 1

expect_pass "vector_add built like nvcc" \
  bash -c "'$nvcc_sim' -arch=sm_75 -O3 -lineinfo -Xcompiler -Wall -o vector_add '$programs/vector_add.cu' && ./vector_add"
expect_pass "monte_carlo_pi with -lcurand and -gencode" \
  bash -c "'$nvcc_sim' -gencode arch=compute_75,code=sm_75 -std=c++17 -lcurand '$programs/monte_carlo_pi.cu' -o pi && ./pi"
expect_pass "separate compilation with -c, then link" \
  bash -c "'$nvcc_sim' -c -o hello.o '$programs/hello_blocks.cu' && '$nvcc_sim' hello.o -o hello && ./hello"
expect_pass "-run" "$nvcc_sim" -run -o stencil "$programs/stencil_1d.cu"

expect_error "a library the simulator lacks" "nvcc-sim: error: .*cuBLAS" \
  "$nvcc_sim" -lcublas -o x "$programs/vector_add.cu"
expect_error "an unknown option" "nvcc-sim: error: unknown option" "$nvcc_sim" --frobnicate x.cu
expect_error "a missing input" "nvcc-sim: error: no such file" "$nvcc_sim" -o x missing.cu

# A compile error points at the learner's .cu file and line.
printf '__global__ void k(int *p) {\n  *p = undefined_name;\n}\nint main(void) { return 0; }\n' \
  >broken.cu
expect_error "compile errors name the .cu line" "broken.cu:2" "$nvcc_sim" -o broken broken.cu

if [[ $failures -ne 0 ]]; then
  echo "FAIL nvcc_sim_driver: $failures checks failed"
  exit 1
fi
echo "PASS nvcc_sim_driver"
