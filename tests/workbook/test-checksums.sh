#!/usr/bin/env bash
# unit.workbook.checksums: shared/workbook/shipped-tasks.sha256, the fingerprints `workbook export`
# compares the bundle's exercises with, matches every exercise of this tree: an exercise changed
# without regenerating the list fails here, naming the task. Also shows that the comparison can
# fail (a task region, the rest of a file, a new lesson) and that --write repairs the list.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

sums=shared/workbook/task-checksums.sh
out=$SCRATCH/out.txt
bash "$SOURCE_ROOT/$sums" --check "$SOURCE_ROOT" >"$out" 2>&1
status=$?
sed 's/^/    | /' "$out"
check "this tree's exercises match the fingerprints (if not: bash $sums --write)" status_is $status 0

# A copy in which an exercise changed in task 2, another outside its task regions, and a lesson
# was added without regenerating the list.
tree=$SCRATCH/tree
copy_source_tree "$tree"
lesson=$(lesson_folder "$tree" 05) || exit 1
name=$(exercise_name "$tree" "$lesson")
sed -i '/---- task 2[^0-9]/a int answer_here = 1;' "$tree/lessons/$lesson/$name"
other=$(lesson_folder "$tree" 03) || exit 1
echo "// a line outside the task regions" >>"$tree/lessons/$other/$(exercise_name "$tree" "$other")"
cp -a "$tree/lessons/$other" "$tree/lessons/99-new-lesson"
cp "$SOURCE_ROOT/solutions/01-kernels-vs-functions/solution.cu" "$tree/lessons/01-kernels-vs-functions/exercise.cu"
bash "$tree/$sums" --check "$tree" >"$out" 2>&1
status=$?
sed 's/^/    | /' "$out"
check "a changed exercise: exit 1" status_is $status 1
check "a changed task region is named" contains "$out" "lesson 05, task 2 differs from the shipped exercise: is an answer in it?"
check "several changed task regions: one line" contains "$out" "lesson 01, tasks 1, 2 and 3 are not as shipped: are answers in them?"
check "a change outside the task regions is named" contains "$out" "lesson 03: changed outside the task regions of the shipped exercise"
check "a lesson the list does not know is named" contains "$out" "lesson 99: no fingerprints in shared/workbook/shipped-tasks.sha256"
check "it says how to regenerate the list" contains "$out" "changed on purpose? then: bash shared/workbook/task-checksums.sh --write"
check "every line fits in 80 columns" awk 'length($0) > 80 { exit 1 }' "$out"

bash "$tree/$sums" --write "$tree" >/dev/null
bash "$tree/$sums" --check "$tree" >"$out" 2>&1
check "after --write the list matches again" status_is $? 0
bash "$tree/$sums" --bogus >"$out" 2>&1
check "an unknown option: exit 2" status_is $? 2

finish
