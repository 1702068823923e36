#!/usr/bin/env bash
# skeleton-guard.sh EXERCISE SOLUTION
#
# The exercise must equal the solution outside the marked task regions, so the learner's file
# and the reference solution can never drift apart. A task region is
#
#     // ---- task N: what to do ----------------------------------------
#     ... (the exercise has TODO lines and a placeholder, the solution the answer)
#     // ---- end of task N ---------------------------------------------
#
# (`/* ---- task N ... */` works too). Both files must have the same tasks in the same order,
# every exercise region must contain a TODO, and no TODO may stand outside a region.
set -u
# Print the file with each region's body replaced by one line naming the task; report marker
# errors (unbalanced, nested) on stderr with the line number. With a third argument, "numbered",
# each printed line starts with its line number and a tab.
skeleton() {
  awk -v file="$1" -v want_todo="$2" -v numbered="${3:-}" '
    function fail(msg) { printf "skeleton: %s:%d: %s\n", file, NR, msg > "/dev/stderr"; bad = 1 }
    /^[ \t]*(\/\/|\/\*) ---- end of task [0-9]+/ {
      match($0, /end of task [0-9]+/); n = substr($0, RSTART + 12, RLENGTH - 12)
      if (!inside) fail("end of task " n " without its start")
      else if (n != task) fail("end of task " n " closes task " task)
      else if (want_todo && !todo) fail("task " n " has no TODO line")
      inside = 0; print (numbered ? NR "\t" : "") "<task " n ">"; next
    }
    /^[ \t]*(\/\/|\/\*) ---- task [0-9]+/ {
      match($0, /task [0-9]+/); n = substr($0, RSTART + 5, RLENGTH - 5)
      if (inside) fail("task " n " starts inside task " task)
      inside = 1; task = n; todo = 0; tasks++; next
    }
    inside { if ($0 ~ /TODO/) todo = 1; next }
    /TODO/ { fail("TODO outside a task region") }
    { print (numbered ? NR "\t" : "") $0 }
    END {
      if (inside) { NR = NR; fail("task " task " is never closed") }
      if (tasks == 0) fail("no task regions")
      exit bad
    }' "$1"
}

# Sourced (the workbook's grader compares a submission with the shipped exercise the same way):
# only the function above.
(return 0 2>/dev/null) && return 0

exercise=${1:?exercise file} solution=${2:?solution file}
for f in "$exercise" "$solution"; do
  [ -f "$f" ] || { echo "skeleton: $f does not exist"; exit 1; }
done

exercise_skeleton=$(skeleton "$exercise" 1) || exit 1
solution_skeleton=$(skeleton "$solution" 0) || exit 1
if [ "$exercise_skeleton" != "$solution_skeleton" ]; then
  echo "skeleton: $exercise and $solution differ outside their task regions:"
  diff <(printf '%s\n' "$exercise_skeleton") <(printf '%s\n' "$solution_skeleton") | head -40
  exit 1
fi
echo "skeleton: OK ($(grep -c '^<task' <<<"$exercise_skeleton") task regions, the rest identical)"
