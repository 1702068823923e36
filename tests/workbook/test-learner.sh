#!/usr/bin/env bash
# unit.workbook.learner: a learner's session on a fresh copy of the tree, one build shared by
# every step: the overview, check (failing, with the program's own lines and a hint), run, watch
# (solving the lesson by copying its solution over the exercise while it watches), the progress
# table flipping to done, report, and reset (restores the exercise, keeps every backup).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

tree=$SCRATCH/tree
copy_source_tree "$tree"
out=$SCRATCH/out.txt
n=$TEST_LESSON_NUMBER
lesson=$(lesson_folder "$tree" "$n") || exit 1
name=$(exercise_name "$tree" "$lesson")
exercise=$tree/lessons/$lesson/$name
solution=$SOURCE_ROOT/solutions/$lesson/solution.${name##*.}
shipped=$SOURCE_ROOT/lessons/$lesson/$name
progress=$tree/build/workbook-progress.txt
# This lesson and the next one (so "next lesson" can be named), and nothing else.
next=$(cd "$tree/lessons" && ls -d [0-9][0-9]-*/ | sed 's|/$||' | awk -v n="$n" 'substr($0, 1, 2) > n { print; exit }')
lessons=$n${next:+;${next%%-*}}
export WORKBOOK_CMAKE_ARGS="$WORKBOOK_CMAKE_ARGS -DWB_LESSONS=$lessons"

# 1. The first run: configure, build, check everything, show the table and what is next.
wb "$tree" "$out"
check "overview: exit 0" status_is $? 0
check "overview: a learner build was configured in build/" grep -q '^WB_TESTS:STRING=learner' "$tree/build/CMakeCache.txt"
check "overview: lesson $n is listed as not started" grep -q -E "^$n +not started " "$out"
check "overview: the lesson title comes from its README" \
  contains "$out" "$(sed -n 's/^# //p' "$tree/lessons/$lesson/README.md" | head -n 1 | sed -E 's/^(Lesson +)?[0-9]+ *(·|:|-|—|\.)? *//')"
check "overview: says plainly where the checks ran" grep -q -E 'Checks run (on the GPU|on the CPU simulator|on the CPU)' "$out"
check "overview: points at lesson $n with the exact command" contains "$out" "workbook check $n"
check "overview: did not count as an attempt" lacks "$progress" "$n.attempts="

# 2. check on the unsolved exercise: fails, shows the program's own lines and the first hint.
wb "$tree" "$out" check "$n"
check "check (unsolved): exit 1" status_is $? 1
check "check (unsolved): shows the program's FAIL line" grep -q '| FAIL' "$out"
check "check (unsolved): shows hint 1" contains "$out" "Hint 1 of"
check "check (unsolved): counted one attempt" grep -q "^$n.attempts=1\$" "$progress"
wb "$tree" "$out" hint "$n"
check "hint after a failed check: the next one, hint 2" contains "$out" "Hint 2 of"

# 2b. Hints after failed checks are about the task that failed and are not counted as asked for
#     (lesson 01: its FAIL lines name their tasks; task 3 has hints 3 and 4, 4 nearly the answer).
if [ "$n" = 01 ]; then
  asked=$(grep "^$n.hints=" "$progress")
  sed 's/return cudaDeviceSynchronize();/return cudaSuccess;/' "$solution" >"$exercise"
  for attempt in 1 2; do
    wb "$tree" "$out" check "$n"
    check "failed check $attempt (task 3): exit 1" status_is $? 1
    check "failed check $attempt (task 3): shows task 3's hint 3" contains "$out" "Hint 3 of 4 (task 3)"
    check "failed check $attempt (task 3): not the near-answer, hint 4" lacks "$out" "Hint 4 of"
  done
  cp "$shipped" "$exercise"
  wb "$tree" "$out" check "$n"
  check "failed check 3 (tasks 1 and 2): shows task 1's hint" contains "$out" "Hint 1 of 4 (task 1)"
  check "three failed checks: no hint counted as asked for" grep -q -x -F "$asked" "$progress"
  wb "$tree" "$out" hint "$n" 3
  check "hint NN K: shows hint K again" contains "$out" "Hint 3 of 4 (task 3)"
  check "hint NN K: a hint seen before is not counted again" grep -q -x -F "$asked" "$progress"
fi

# 3. run: the program runs (the exercise, unsolved, reports a wrong result; the solution passes).
wb "$tree" "$out" run "$n" -- --n 1000 --repeat 1
check "run (exercise): exits with the program's status 1" status_is $? 1
check "run (exercise): the program ran and printed its verdict" grep -q '^FAIL: ' "$out"
check "run: says where it runs" grep -q -E 'on (the GPU|the CPU simulator|the CPU)' "$out"
wb "$tree" "$out" run "$n" --solution -- --n 1000 --repeat 1
check "run --solution: exit 0 and PASS" status_is $? 0
check "run --solution: PASS" grep -q '^PASS$' "$out"

# 4. watch: it checks at once, then again when the exercise changes; solving it by copying the
#    solution over the exercise flips it to PASS. Polling, so it works without inotifywait.
watch_out=$SCRATCH/watch.txt
(cd "$SCRATCH" && WORKBOOK_WATCH=poll WORKBOOK_POLL_SECONDS=1 exec timeout 600 "$tree/workbook" watch "$n") >"$watch_out" 2>&1 &
watcher=$!
wait_for() { # FILE TEXT SECONDS
  local i
  for ((i = 0; i < $3; i++)); do grep -q -F -- "$2" "$1" && return 0; sleep 1; done
  return 1
}
check "watch: checks at once and then waits" wait_for "$watch_out" "Watching" 300
cp "$solution" "$exercise"
check "watch: re-checks when the file changes, and it passes" wait_for "$watch_out" "PASS: lesson $n is done" 300
kill -TERM "$watcher" 2>/dev/null
wait "$watcher"
check "watch: stops cleanly" contains "$watch_out" "Stopped watching"
sed 's/^/    | /' "$watch_out"

# 5. check and the table now say done, and name the next lesson.
wb "$tree" "$out" check "$n"
check "check (solved): exit 0" status_is $? 0
check "check (solved): congratulates" contains "$out" "PASS: lesson $n is done"
if [ -n "$next" ]; then
  check "check (solved): names the next lesson" contains "$out" "Next: lesson ${next%%-*}"
fi
wb "$tree" "$out"
check "overview after solving: lesson $n is done" grep -q -E "^$n +done " "$out"
if [ -n "$next" ]; then
  check "overview after solving: next is lesson ${next%%-*}" contains "$out" "workbook check ${next%%-*}"
fi

# 6. report: one file with lessons done, attempts, hints and backend.
wb "$tree" "$out" report "$SCRATCH/report.txt"
check "report: exit 0" status_is $? 0
check "report: the file exists" test -f "$SCRATCH/report.txt"
check "report: lessons done" grep -q -E '^done: +1 of [12] lessons?' "$SCRATCH/report.txt"
check "report: hints used (asked for, not shown after a failed check)" grep -q -E '^hints: +1 used' "$SCRATCH/report.txt"
check "report: backend" grep -q -E '^backend: +checks ran on' "$SCRATCH/report.txt"
check "report: lesson $n done" grep -q -E "^$n +done " "$SCRATCH/report.txt"

# 7. reset: the shipped exercise comes back; the learner's version is kept, never overwritten.
solved_copy=$SCRATCH/solved.txt
cp "$exercise" "$solved_copy"
wb "$tree" "$out" reset "$n"
check "reset: exit 0" status_is $? 0
check "reset: the exercise is as shipped" cmp -s "$exercise" "$shipped"
backups=("$exercise".*.bak)
check "reset: one backup" test ${#backups[@]} -eq 1 -a -f "${backups[0]}"
first_backup=${backups[0]}
check "reset: the backup holds the learner's version" cmp -s "${backups[0]}" "$solved_copy"
echo "/* a second attempt */" >>"$exercise"
cp "$exercise" "$SCRATCH/second.txt"
wb "$tree" "$out" reset "$n"
check "reset again: exit 0" status_is $? 0
backups=("$exercise".*.bak)
check "reset again: two backups" test ${#backups[@]} -eq 2
check "reset again: the first backup is unchanged" cmp -s "$first_backup" "$solved_copy"
check "reset again: the second attempt is kept too" \
  bash -c 'for f in "$1".*.bak; do cmp -s "$f" "$2" && exit 0; done; exit 1' _ "$exercise" "$SCRATCH/second.txt"
wb "$tree" "$out" reset "$n"
check "reset when nothing changed: exit 0, no new backup" test "$(ls "$exercise".*.bak | wc -l)" -eq 2
wb "$tree" "$out"
check "overview after reset: lesson $n is not done" grep -q -E "^$n +not yet " "$out"

finish
