#!/usr/bin/env bash
# unit.workbook.sanitizers: `check NN --asan` and `check NN --race` build the learner's own exercise
# on the simulator with AddressSanitizer or ThreadSanitizer, in one command: lesson 07's grid-stride
# loop to i <= n is an AddressSanitizer report, lesson 08's count without the atomic a
# ThreadSanitizer one; the solutions pass both; neither counts as a check. The first build of a
# sanitizer's simulator shows progress (lines in a pipe, one rewritten line on a terminal), every
# line fits 80 columns, and a sanitizer that runs out of time is not put down to a loop.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# Every line within 80 columns; on a terminal a progress line is rewritten after a carriage
# return, so each piece between them counts as a line.
fits_80_columns() { # FILE
  tr '\r' '\n' <"$1" | sed 's/\x1b\[K//g' | LC_ALL=C.UTF-8 awk 'length($0) > 80 { print "too wide: " $0; bad = 1 } END { exit bad }'
}

tree=$SCRATCH/tree
copy_source_tree "$tree"
out=$SCRATCH/out.txt
export WORKBOOK_CMAKE_ARGS="$WORKBOOK_CMAKE_ARGS -DWB_LESSONS=07;08"
# (The workbook configures with Ninja where it is installed, as the sim-asan and sim-race presets
# do: their trees and this copy's build-asan/build-race then compile the simulator runtime with the
# same commands, and in CI one takes the other's objects from ccache, .ci/run. The progress checks
# below accept Ninja's steps and Make's percentages alike.)
l07=$(lesson_folder "$tree" 07) || exit 1
l08=$(lesson_folder "$tree" 08) || exit 1

sed -f "$SOURCE_ROOT/tests/mutants/$l07/loop-to-n-inclusive.sed" "$SOURCE_ROOT/solutions/$l07/solution.cu" \
  >"$tree/lessons/$l07/exercise.cu"
# (progress after 1 s: with CI's ccache warm, this first build can take under the usual 3)
WORKBOOK_PROGRESS_AFTER=1 WORKBOOK_PROGRESS_SECONDS=2 wb "$tree" "$out" check 07 --asan
check "07 i <= n, --asan: exit 1" status_is $? 1
check "--asan, first build: says it builds the simulator once, for minutes" \
  contains "$out" "The first time, this builds the simulator with AddressSanitizer in"
check "--asan, first build: progress lines in a pipe" \
  grep -q -E '^  building: (step [0-9]+ of [0-9]+|[0-9]+% done), [0-9]+ s so far$' "$out"
check "--asan, first build: no terminal codes in a pipe" bash -c '! grep -q $'"'"'\r'"'"' "$1"' _ "$out"
check "07 i <= n, --asan: every line fits 80 columns" fits_80_columns "$out"
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
check "07 solution, --asan: passes, not counted" \
  bash -c 'tr "\n" " " <"$1" | grep -q "does not count as a check"' _ "$out"
check "07 solution, --asan: every line fits 80 columns" fits_80_columns "$out"
check "07 solution, --asan: no first-build note the second time" lacks "$out" "The first time"
# Timing runs are skipped under a sanitizer: a run says so instead of giving figures.
"$tree/build-asan/bin/$l07.exercise.sim" --n 1000 --repeat 3 >"$out" 2>&1
check "07 solution, --asan: passes untimed" grep -q '^PASS$' "$out"
check "07 solution, --asan: timed nothing" \
  contains "$out" "(no figures: nothing is timed under AddressSanitizer, which slows code down)"

sed 's|if (my_primes > 0) atomicAdd(count, my_primes);|if (my_primes > 0) *count += my_primes;|' \
  "$SOURCE_ROOT/solutions/$l08/solution.cu" >"$tree/lessons/$l08/exercise.cu"
WORKBOOK_PROGRESS_AFTER=1 WORKBOOK_PROGRESS=tty wb "$tree" "$out" check 08 --race
check "08 without the atomic, --race: exit 1" status_is $? 1
check "--race, first build: progress on one rewritten terminal line" \
  grep -q -E $'\r\e\\[K  building: \\[([0-9]+/[0-9]+|[0-9]+%)\\] [0-9]+ s' "$out"
check "--race, first build: every line and rewrite fits 80 columns" fits_80_columns "$out"
check "08 without the atomic, --race: ThreadSanitizer's report" contains "$out" "WARNING: ThreadSanitizer: data race"
check "08 without the atomic, --race: the report names the exercise's line from the tree" \
  grep -q -E "^  \|  .* lessons/$l08/exercise\.cu:[0-9]+$" "$out"
cp "$SOURCE_ROOT/solutions/$l08/solution.cu" "$tree/lessons/$l08/exercise.cu"
wb "$tree" "$out" check 08 --race
check "08 solution, --race: exit 0" status_is $? 0
check "08 solution, --race: every line fits 80 columns" fits_80_columns "$out"
# A sanitizer out of time (1 s a run, and each run made 3 s longer by TSan's own sleep at exit,
# which the simulator's runtime sets to 0 and TSAN_OPTIONS sets back): the sanitizer's speed, how
# to give it more time, exit 3 (could not check), no loop blamed.
TSAN_OPTIONS=atexit_sleep_ms=3000 WORKBOOK_SANITIZER_TIMEOUT=1 wb "$tree" "$out" check 08 --race
check "--race out of time: exit 3 (could not check)" status_is $? 3
check "--race out of time: says the sanitizer is slow" \
  contains "$out" "Could not finish lesson 08's check under ThreadSanitizer in time"
check "--race out of time: how to give it more time" contains "$out" "WORKBOOK_SANITIZER_TIMEOUT=3"
check "--race out of time: no loop blamed" lacks "$out" "never end?"
check "--race out of time: every line fits 80 columns" fits_80_columns "$out"

wb "$tree" "$out" check 08 --asan --race
check "--asan --race: exit 2" status_is $? 2
check "--asan --race: one line" test "$(wc -l <"$out")" -eq 1
check "the sanitizer checks were not counted as checks" \
  bash -c '! grep -q -E "^0[78]\\." "$1" 2>/dev/null' _ "$tree/build/workbook-progress.txt"
finish
