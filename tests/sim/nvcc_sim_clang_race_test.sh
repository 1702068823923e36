#!/usr/bin/env bash
# The memory checker under clang (issue 27): usage: nvcc_sim_clang_race_test.sh NVCC_SIM CLANGXX
# RACE_CASES_CU REFERENCE_BINARY WORK_DIR (CUSIM_BUILD_DIR names the CMake build whose simulator
# nvcc-sim uses). race_cases.cu built by nvcc-sim with clang must give, case by case, the verdict
# the build's own race_cases (its compiler's) gives: clang's ThreadSanitizer pass drops the read
# of `*count += 1` (count_plain: a race missed) unless told not to, and turns a float4 copy into a
# memcpy call the checker did not see (float4_component_barrier: a false "uninitialized" read).
set -uo pipefail

nvcc_sim=$1 clangxx=$2 cases=$3 reference=$4 work=$5
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

if ! CUSIM_CXX=$clangxx CUSIM_CC=${clangxx%++} "$nvcc_sim" -o race_cases_clang "$cases" >build.log 2>&1; then
  cat build.log
  echo "FAIL nvcc_sim_clang_race: the clang build failed"
  exit 1
fi
failures=0 count=0
# Cases whose verdict depends on the order the blocks run in, as tests/sim/CMakeLists.txt runs
# them: on one worker (CUSIM_THREADS=1), both builds.
one_worker=" shared_reads_volatile_write "
for name in $(grep -o 'strcmp(c, "[a-z0-9_]*")' "$cases" | sed 's/.*"\(.*\)".*/\1/' | sort -u); do
  count=$((count + 1))
  threads=${CUSIM_THREADS:-}
  [[ $one_worker != *" $name "* ]] || threads=1
  want=$(CUSIM_THREADS=$threads "$reference" "$name" 2>&1 | grep "^$name: ")
  got=$(CUSIM_THREADS=$threads ./race_cases_clang "$name" 2>&1 | grep "^$name: ")
  if [[ "$want" != "$got" ]]; then
    echo "FAIL: $name: clang gives [$got], the reference [$want]"
    failures=$((failures + 1))
  fi
done
# The race of count_plain itself, reported as the reference reports it.
out=$(./race_cases_clang count_plain 2>&1)
if ! grep -q "data race at race_cases.cu:[0-9]*: thread (1,0,0) reads 4 bytes of managed memory" <<<"$out"; then
  echo "FAIL: count_plain: no race report under clang"
  failures=$((failures + 1))
fi
if [[ $failures -ne 0 || $count -lt 10 ]]; then
  echo "FAIL nvcc_sim_clang_race: $failures of $count cases differ"
  exit 1
fi
echo "PASS nvcc_sim_clang_race: $count cases give the same verdict under clang"
