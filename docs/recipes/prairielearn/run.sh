#!/usr/bin/env bash
# PrairieLearn's external grader: the grading container runs this with the job in /grade
# (/grade/student: the student's files; /grade/serverFilesCourse/workbook: the instructor's tree;
# /grade/tests/lessons.txt: the lessons, e.g. 03). Writes /grade/results/results.json in
# PrairieLearn's format: score 0..1 and one test per task with points and max_points; a check
# that could not run (the grader's fault) gives "gradable": false, never a zero.
# PL_GRADE_ROOT replaces /grade (to try it on a folder laid out the same way).
set -u
root=${PL_GRADE_ROOT:-/grade}
lessons=$(tr -d ' \n' <"$root/tests/lessons.txt")
work=$(mktemp -d)
mkdir -p "$work/submissions/student" "$root/results"
cp -r "$root/student/." "$work/submissions/student/"
export WORKBOOK_BUILD_DIR=$work/build
# In a container where bubblewrap cannot start (no user namespaces), the container is the fence:
# grade without the sandbox, by choice (grade refuses to otherwise).
sandbox=()
"$root/serverFilesCourse/workbook/shared/workbook/sandbox.sh" --probe >/dev/null 2>&1 || sandbox=(--no-sandbox)
"$root/serverFilesCourse/workbook/workbook" grade "$work/submissions" --lessons "$lessons" \
  --output "$work/grade" "${sandbox[@]}" >"$work/grade.out" 2>&1
status=$?
record=$work/grade/logs/student/grade.record
if [ $status -ne 0 ] || [ ! -f "$record" ]; then
  message=$(tail -n 3 "$work/grade.out" | tr '"\\' "'/" | tr '\n' ' ')
  printf '{"gradable": false, "message": "%s"}\n' "$message" >"$root/results/results.json"
  exit 0
fi
# The record's task lines (fields separated by \037): T lesson task verdict points max title note.
awk -F'\037' '
  function q(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }
  $1 == "T" { n++; got += $5; max += $6
    tests = tests (n > 1 ? ",\n" : "") sprintf("    {\"name\": %s, \"points\": %g, \"max_points\": %g, \"output\": %s}",
      q("Lesson " substr($2, 1, 2) ", task " $3 ": " $7), $5, $6, q($4 ($8 != "" ? " (" $8 ")" : ""))) }
  END { printf "{\"gradable\": true, \"score\": %g, \"tests\": [\n%s\n]}\n", (max > 0 ? got / max : 0), tests }' \
  "$record" >"$root/results/results.json"
cp "$work/grade.out" "$root/results/grade.out"
rm -rf "$work"
