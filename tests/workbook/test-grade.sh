#!/usr/bin/env bash
# unit.workbook.grade: an instructor grades a folder of submissions on a machine without a GPU.
#   alice: a copy of lessons/ with the lesson solved (the solution copied over the exercise): PASS
#   bob:   the shipped (wrong) exercise, and a driver edited to print PASS and exit 0: FAIL,
#          because only exercise files are taken from a submission
#   carol: an exercise that does not compile (in a task region): FAIL (compile error)
#   dave:  submitted nothing for the lesson: not submitted
# Checks the JUnit XML verdicts, the summary table and that the report says where it ran.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

tree=$SCRATCH/tree
copy_source_tree "$tree"
out=$SCRATCH/out.txt
n=$TEST_LESSON_NUMBER
lesson=$(lesson_folder "$tree" "$n") || exit 1
name=$(exercise_name "$tree" "$lesson")
solution=$SOURCE_ROOT/solutions/$lesson/solution.${name##*.}

subs=$SCRATCH/submissions
mkdir -p "$subs/alice/lessons" "$subs/bob" "$subs/carol/lessons" "$subs/dave/lessons"
cp -r "$SOURCE_ROOT/lessons/$lesson" "$subs/alice/lessons/"
cp "$solution" "$subs/alice/lessons/$lesson/$name"
# bob has no lessons/ level: his folder is the copy of lessons/ itself.
cp -r "$SOURCE_ROOT/lessons/$lesson" "$subs/bob/"
for driver in main.c reference.c; do
  printf '#include <stdio.h>\nint main(void) { puts("PASS"); return 0; }\n' >"$subs/bob/$lesson/$driver"
done
cp -r "$SOURCE_ROOT/lessons/$lesson" "$subs/carol/lessons/"
# Inside a task region (a change outside one is refused before anything is built).
awk '!done && /^ *\/\/ ---- task [0-9]/ { print; print "  this is not C at all;"; done = 1; next } 1' \
  "$SOURCE_ROOT/lessons/$lesson/$name" >"$subs/carol/lessons/$lesson/$name"
mkdir -p "$subs/dave/lessons/$lesson"
echo "I did not do it" >"$subs/dave/lessons/$lesson/notes.txt"

# bob's driver alone would pass: prove the edit would have helped had the grader used it.
(cd "$SCRATCH" && cc -x c -o bob-driver "$subs/bob/$lesson/main.c" && ./bob-driver >/dev/null)
check "bob's edited driver passes on its own (so it must not be used)" status_is $? 0

results=$SCRATCH/results
wb "$tree" "$out" grade "$subs" --lessons "$n" --output "$results"
check "grade: exit 0" status_is $? 0
junit=$results/junit.xml
check "grade: junit.xml written" test -s "$junit"
check "grade: summary.txt written" test -s "$results/summary.txt"
if command -v xmllint >/dev/null; then
  check "grade: junit.xml is well-formed XML" xmllint --noout "$junit"
fi

# The verdicts, one <testcase> per student and lesson.
testcase() { # STUDENT: that student's <testcase> element, on one line
  tr '\n' ' ' <"$junit" | grep -o "<testcase classname=\"$1\" name=\"$lesson\"[^>]*>.*" | sed 's|</testcase>.*|</testcase>|'
}
check "grade: four testcases" test "$(grep -c '<testcase ' "$junit")" -eq 4
check "grade: alice passes (no failure)" bash -c '! grep -q "<failure" <<<"$1"' _ "$(testcase alice)"
check "grade: alice's testcase is there" test -n "$(testcase alice)"
check "grade: bob fails despite his driver (wrong result)" grep -q 'failure type="wrong-result"' <<<"$(testcase bob)"
check "grade: carol fails (compile error)" grep -q 'failure type="compile-error"' <<<"$(testcase carol)"
check "grade: dave has not submitted" grep -q 'failure type="not-submitted"' <<<"$(testcase dave)"
check "grade: totals" grep -q '<testsuites name="workbook grade" tests="4" failures="3">' "$junit"
check "grade: the JUnit file says where it ran" grep -q -E '<property name="backend" value="on (the GPU|the CPU simulator|the CPU)' "$junit"

# The summary table: student x lesson.
check "summary: alice PASS" grep -q -E "^alice +PASS +1/1" "$results/summary.txt"
check "summary: bob FAIL" grep -q -E "^bob +FAIL +0/1" "$results/summary.txt"
check "summary: carol FAIL" grep -q -E "^carol +FAIL +0/1" "$results/summary.txt"
check "summary: dave not submitted" grep -q -E "^dave +-- +0/1" "$results/summary.txt"
check "summary: says whether it ran on a GPU or the simulator" \
  grep -q -E '^# checks ran on (the GPU|the CPU simulator|the CPU)' "$results/summary.txt"
check "grade: a log per student and lesson" test -s "$results/logs/bob/$lesson.log"

# The pristine tree it graded in has no solutions and the shipped drivers.
check "grade: the pristine tree has no solutions/" test ! -e "$results/work/tree/solutions"
check "grade: the pristine tree has the shipped driver" cmp -s "$results/work/tree/lessons/$lesson/main.c" "$SOURCE_ROOT/lessons/$lesson/main.c"

# Bad input: one line, exit 2.
wb "$tree" "$out" grade "$SCRATCH/no-such-folder"
check "grade of a missing folder: exit 2" status_is $? 2

finish
