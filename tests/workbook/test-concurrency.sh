#!/usr/bin/env bash
# unit.workbook.concurrency: workbook commands run at once lose nothing. Six checks of a solved
# lesson and two hint requests start together on one build: the commands take turns (one says it
# waits, naming the pid it waits for), every attempt and hint is counted, "done" is kept, the
# progress file is whole and no temporary file is left. Without flock(1), a command says that it
# runs unguarded.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

tree=$SCRATCH/learner
copy_source_tree "$tree"
out=$SCRATCH/out.txt
n=$TEST_LESSON_NUMBER
lesson=$(lesson_folder "$tree" "$n") || exit 1
name=$(exercise_name "$tree" "$lesson")
export WORKBOOK_CMAKE_ARGS="$WORKBOOK_CMAKE_ARGS -DWB_LESSONS=$n"
progress=$tree/build/workbook-progress.txt
value() { sed -n "s/^$1=//p" "$progress"; } # KEY

# One failing check (configures and builds), then the lesson solved: 2 attempts, done.
wb "$tree" "$out" check "$n" >/dev/null
check "first check (the exercise as shipped): exit 1" status_is $? 1
cp "$SOURCE_ROOT/solutions/$lesson/solution.${name##*.}" "$tree/lessons/$lesson/$name"
wb "$tree" "$out" check "$n" >/dev/null
check "check of the solved lesson: exit 0" status_is $? 0
check "2 attempts before the concurrent commands" test "$(value "$n.attempts")" = 2
hints_before=$(value "$n.hints")
seen_before=$(value "$n.seen")

# Six checks and two hints at once.
pids=()
for i in 1 2 3 4 5 6; do
  (cd "$SCRATCH" && timeout 600 "$tree/workbook" check "$n") >"$SCRATCH/check$i.txt" 2>&1 &
  pids+=($!)
done
for i in 1 2; do
  (cd "$SCRATCH" && timeout 600 "$tree/workbook" hint "$n") >"$SCRATCH/hint$i.txt" 2>&1 &
  pids+=($!)
done
statuses=''
for pid in "${pids[@]}"; do wait "$pid"; statuses+="$? "; done
for f in "$SCRATCH"/check*.txt "$SCRATCH"/hint*.txt; do sed "s/^/    | ${f##*/}: /" "$f"; done
check "every concurrent command exits 0 ($statuses)" test "$statuses" = "0 0 0 0 0 0 0 0 "
check "a command says it waits, naming the pid" \
  grep -q -E '^waiting for another workbook command \(pid [0-9]+\) \.\.\.$' "$SCRATCH"/check*.txt "$SCRATCH"/hint*.txt
sed 's/^/    | progress: /' "$progress"
check "attempts add up: 2 + 6 = $(value "$n.attempts")" test "$(value "$n.attempts")" = 8
check "the lesson is still done" test "$(value "$n.status")" = "done"
check "both hints are counted: ${hints_before:-0} + 2 = $(value "$n.hints")" test "$(value "$n.hints")" = $((${hints_before:-0} + 2))
seen_count() { tr , "\\n" <<<"$1" | grep -c .; }
check "both hints are remembered as seen: $seen_before -> $(value "$n.seen")" \
  test "$(seen_count "$(value "$n.seen")")" = $(($(seen_count "$seen_before") + 2))
check "the progress file is whole (a comment, then key=value lines, each key once)" \
  awk -F= 'NR == 1 && !/^#/ { bad = 1 } NR > 1 && (NF < 2 || seen[$1]++) { bad = 1 } END { exit bad }' "$progress"
leftovers=$(cd "$tree/build" && ls -d workbook-progress.txt.* workbook.lock.pid.* 2>/dev/null)
check "no temporary files left${leftovers:+ ($leftovers)}" test -z "$leftovers"

# Without flock(1): a PATH of every tool but flock. The command runs, and says it is unguarded.
nolock=$SCRATCH/nolock-bin
mkdir -p "$nolock"
IFS=: read -r -a path_dirs <<<"$PATH"
for dir in "${path_dirs[@]}"; do
  for tool in "$dir"/*; do
    [ -x "$tool" ] && [ "${tool##*/}" != flock ] && [ ! -e "$nolock/${tool##*/}" ] && ln -s "$tool" "$nolock/${tool##*/}"
  done
done
(cd "$SCRATCH" && PATH=$nolock timeout 600 "$tree/workbook" hint "$n" 3) >"$out" 2>&1
status=$?
sed 's/^/    | /' "$out"
check "without flock: the command still works (exit $status)" status_is $status 0
check "without flock: it says commands are unguarded" \
  contains "$out" "flock not found (util-linux): commands run at once may lose progress"

finish
