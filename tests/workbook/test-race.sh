#!/usr/bin/env bash
# unit.workbook.race: lesson 08 with its shared count updated without the atomic (the lost update
# a GPU shows only sometimes) fails the learner's `check` and the instructor's `grade` on every
# run, with the simulator's race report naming task 4; the solution passes both.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

tree=$SCRATCH/tree
copy_source_tree "$tree"
out=$SCRATCH/out.txt
lesson=$(lesson_folder "$tree" 08) || exit 1
exercise=$tree/lessons/$lesson/exercise.cu
solution=$SOURCE_ROOT/solutions/$lesson/solution.cu
export WORKBOOK_CMAKE_ARGS="$WORKBOOK_CMAKE_ARGS -DWB_LESSONS=08"
racy=$SCRATCH/racy.cu
sed 's|if (my_primes > 0) atomicAdd(count, my_primes);|if (my_primes > 0) *count += my_primes;|' \
  "$solution" >"$racy"
check "the racy answer differs from the solution (the edit applied)" bash -c '! cmp -s "$1" "$2"' _ "$racy" "$solution"

# The learner: check fails three times running, each time with the race and its task.
cp "$racy" "$exercise"
for attempt in 1 2 3; do
  wb "$tree" "$out" check 08
  check "check $attempt (no atomic): exit 1" status_is $? 1
  check "check $attempt (no atomic): reports the data race" contains "$out" "data race at"
  check "check $attempt (no atomic): names task 4 and the atomic" \
    bash -c 'unwrap "$1" | grep -q -E "data race at [^ ]*:[0-9]+ \(task 4\).*atomic"' _ "$out"
  # (Lines naming this test's long folder, where a learner sees ./workbook, are not counted.)
  check "check $attempt (no atomic): every line fits 80 columns" \
    bash -c '! grep -v -F "$2" "$1" | LC_ALL=C.UTF-8 grep -q -E "^.{81}"' _ "$out" "$tree"
done
cp "$solution" "$exercise"
wb "$tree" "$out" check 08
check "check (solution): exit 0" status_is $? 0

# The instructor: the racy submission fails, the right one passes.
subs=$SCRATCH/submissions
mkdir -p "$subs/racy/lessons/$lesson" "$subs/right/lessons/$lesson"
cp "$racy" "$subs/racy/lessons/$lesson/exercise.cu"
cp "$solution" "$subs/right/lessons/$lesson/exercise.cu"
results=$SCRATCH/results
wb "$tree" "$out" grade "$subs" --lessons 08 --output "$results"
check "grade: exit 0" status_is $? 0
check "summary: the racy submission fails" grep -q -E "^racy +[0-9]+/[0-9]+:(wrong-result|crash) " "$results/summary.txt"
check "summary: the right submission passes" grep -q -E "^right +([0-9]+)/\1:pass " "$results/summary.txt"
check "grade: the racy submission's log has the race report" grep -q "data race at" "$results/logs/racy/$lesson.log"
finish
