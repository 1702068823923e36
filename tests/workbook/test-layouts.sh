#!/usr/bin/env bash
# unit.workbook.layouts: submissions as they arrive, all in one folder and graded in one run on
# lesson 03 (each one the solution, so each must pass; a layout not understood would be "not
# submitted"):
#   amy        a folder with exercise.cu at its top (the Moodle-style folder per student)
#   ben        a lessons tree: ben/lessons/03-hello-copy/exercise.cu
#   cat        a copy of lessons/ itself: cat/03-hello-copy/exercise.cu
#   dan        a whole-tree copy (workbook, shared/, lessons/ ...)
#   eve        a git clone of a student's repository (GitHub Classroom's layout)
#   Fay Lee    "Fay Lee_1234_assignsubmission_file_exercise.cu": a flat LMS bulk download file
#   gus        "gus_55_66_exercise.cu", the Canvas way
#   hal        a flat file that is a symbolic link: refused
# Then: flat files without --lessons, and a lesson that does not exist, are errors that say so.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

tree=$SCRATCH/tree
copy_source_tree "$tree"
out=$SCRATCH/out.txt
lesson=03-hello-copy
solution=$SOURCE_ROOT/solutions/$lesson/solution.cu
subs=$SCRATCH/submissions
mkdir -p "$subs/amy" "$subs/ben/lessons/$lesson" "$subs/cat/$lesson" "$subs/eve"
cp "$solution" "$subs/amy/exercise.cu"
echo "my notes" >"$subs/amy/notes.txt"
cp "$solution" "$subs/ben/lessons/$lesson/exercise.cu"
cp "$solution" "$subs/cat/$lesson/exercise.cu"
copy_source_tree "$subs/dan"
rm -rf "$subs/dan/solutions"
cp "$solution" "$subs/dan/lessons/$lesson/exercise.cu"
copy_source_tree "$subs/eve"
rm -rf "$subs/eve/solutions"
cp "$solution" "$subs/eve/lessons/$lesson/exercise.cu"
if command -v git >/dev/null; then
  (cd "$subs/eve" && git init -q && git add -A && git -c user.name=eve -c user.email=eve@example.com commit -q -m solved) ||
    fail "could not make eve's git clone"
fi
cp "$solution" "$subs/Fay Lee_1234_assignsubmission_file_exercise.cu"
cp "$solution" "$subs/gus_55_66_exercise.cu"
ln -s "$subs/gus_55_66_exercise.cu" "$subs/hal_77_exercise.cu"

results=$SCRATCH/results
wb "$tree" "$out" grade "$subs" --lessons 03 --output "$results"
check "grade: exit 0" status_is $? 0
for student in amy ben cat dan eve "Fay Lee" gus; do
  check "$student passes" grep -q -E "^  $student +03 pass \[3/3\]" "$out"
done
check "hal's link is refused" grep -q -E "^  hal +03 refused: .*symbolic link" "$out"
check "eve's clone is a git repository" test -d "$subs/eve/.git"
check "grades.csv: a row for the LMS file's student" grep -q -F 'Fay Lee,pass,3,1,1,1,3,3' "$results/grades.csv"
check "grades.csv: nine lines" test "$(wc -l <"$results/grades.csv")" -eq 9

# Flat files need the lesson named; a lesson that does not exist is named.
wb "$tree" "$out" grade "$subs" --output "$results"
check "flat files without --lessons: exit 2" status_is $? 2
check "... says to name the lesson" contains "$out" "name the one lesson it is for (--lessons NN)"
wb "$tree" "$out" grade "$subs" --lessons 03,12,42 --output "$results"
check "a lesson that does not exist: exit 2" status_is $? 2
check "... says which" contains "$out" "there is no lesson 42"
finish
