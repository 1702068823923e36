#!/usr/bin/env bash
# unit.workbook.sanitizers: `check NN --asan` and `check NN --race` build the learner's own exercise
# on the simulator with AddressSanitizer or ThreadSanitizer, in one command: lesson 07's grid-stride
# loop to i <= n is an AddressSanitizer report, lesson 08's count without the atomic a
# ThreadSanitizer one; the solutions pass both; neither counts as a check.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

tree=$SCRATCH/tree
copy_source_tree "$tree"
out=$SCRATCH/out.txt
export WORKBOOK_CMAKE_ARGS="$WORKBOOK_CMAKE_ARGS -DWB_LESSONS=07;08"
l07=$(lesson_folder "$tree" 07) || exit 1
l08=$(lesson_folder "$tree" 08) || exit 1

sed -f "$SOURCE_ROOT/tests/mutants/$l07/loop-to-n-inclusive.sed" "$SOURCE_ROOT/solutions/$l07/solution.cu" \
  >"$tree/lessons/$l07/exercise.cu"
wb "$tree" "$out" check 07 --asan
check "07 i <= n, --asan: exit 1" status_is $? 1
check "07 i <= n, --asan: AddressSanitizer's report" grep -q -E "AddressSanitizer: (heap-buffer-overflow|SEGV|unknown-crash)" "$out"
check "07 i <= n, --asan: says it is AddressSanitizer" contains "$out" "under AddressSanitizer"
check "--asan: its own build folder" test -f "$tree/build-asan/CMakeCache.txt"
wb "$tree" "$out" run 07 --asan -- --n 1000 --repeat 1
check "run 07 --asan (i <= n): fails" bash -c '[ "$1" -ne 0 ]' _ $?
check "run 07 --asan: says it runs under AddressSanitizer" contains "$out" "on the CPU simulator under AddressSanitizer"
check "run 07 --asan: AddressSanitizer's report" grep -q -E "AddressSanitizer: (heap-buffer-overflow|SEGV|unknown-crash)" "$out"
wb "$tree" "$out" run 07 --asan --race
check "run --asan --race: exit 2" status_is $? 2
cp "$SOURCE_ROOT/solutions/$l07/solution.cu" "$tree/lessons/$l07/exercise.cu"
wb "$tree" "$out" check 07 --asan
check "07 solution, --asan: exit 0" status_is $? 0
check "07 solution, --asan: passes, not counted" contains "$out" "does not count as a check"

sed 's|if (my_primes > 0) atomicAdd(count, my_primes);|if (my_primes > 0) *count += my_primes;|' \
  "$SOURCE_ROOT/solutions/$l08/solution.cu" >"$tree/lessons/$l08/exercise.cu"
wb "$tree" "$out" check 08 --race
check "08 without the atomic, --race: exit 1" status_is $? 1
check "08 without the atomic, --race: ThreadSanitizer's report" contains "$out" "WARNING: ThreadSanitizer: data race"
cp "$SOURCE_ROOT/solutions/$l08/solution.cu" "$tree/lessons/$l08/exercise.cu"
wb "$tree" "$out" check 08 --race
check "08 solution, --race: exit 0" status_is $? 0

wb "$tree" "$out" check 08 --asan --race
check "--asan --race: exit 2" status_is $? 2
check "--asan --race: one line" test "$(wc -l <"$out")" -eq 1
check "the sanitizer checks were not counted as checks" \
  bash -c '! grep -q -E "^0[78]\\." "$1" 2>/dev/null' _ "$tree/build/workbook-progress.txt"
finish
