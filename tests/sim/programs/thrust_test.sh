#!/usr/bin/env bash
# Thrust on the simulator (shared/sim/include/cccl/README.md), built by nvcc-sim as a program's
# Makefile would: usage: thrust_test.sh NVCC_SIM PROGRAMS_DIR WORK_DIR
# 1. thrust_basics.cu (nvcc builds it too) builds, runs and prints PASS.
# 2. What is not simulated stops the build with one line: CUB, and thrust::cuda::par.
# Exit 77 (a skip) when nvcc-sim finds no CCCL headers (no CUDA toolkit).
set -uo pipefail

nvcc_sim=$1
programs=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

output=$("$nvcc_sim" -std=c++17 -O2 -o thrust_basics "$programs/thrust_basics.cu" 2>&1)
status=$?
if grep -q "Thrust needs the CUDA toolkit's CCCL headers" <<<"$output"; then
  echo "skip: no CCCL headers (Thrust comes with the CUDA toolkit): $output"
  exit 77
fi
if [[ $status -ne 0 ]]; then
  fail "thrust_basics: build failed: $output"
elif ! run=$(./thrust_basics 2>&1) || ! grep -q '^PASS thrust_basics' <<<"$run"; then
  fail "thrust_basics: $run"
else
  echo "ok: thrust_basics: $run"
fi

expect_refusal() { # name, pattern, source text
  local name=$1 pattern=$2
  printf '%s\n' "$3" >"$name.cu"
  local output
  if output=$("$nvcc_sim" -std=c++17 -c "$name.cu" -o "$name.o" 2>&1); then
    fail "$name: built, expected a refusal"
  elif [[ $(grep -c 'error:' <<<"$output") -ne 1 ]] || ! grep -Eq -- "$pattern" <<<"$output"; then
    fail "$name: expected one error line matching '$pattern': $output"
  else
    echo "ok: $name: $(grep "error:" <<<"$output")"
  fi
}

expect_refusal cub_refused 'error: #error "cusim: CUB is not simulated' \
  '#include <cub/cub.cuh>
int main(void) { return 0; }'

expect_refusal cuda_par_refused \
  "error: static assertion failed: cusim: thrust::cuda::par and par_nosync" \
  '#include <thrust/device_vector.h>
#include <thrust/sort.h>
int main(void) {
  thrust::device_vector<int> v(4);
  thrust::sort(thrust::cuda::par.on(0), v.begin(), v.end());
  return 0;
}'
exit $((failures > 0))
