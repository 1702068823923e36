#!/usr/bin/env bash
# unit.workbook.grade: an instructor grades a class on lesson 03 (three tasks; task 1 worth 2
# points by the lesson's grading.txt, so the lesson is worth 4), on a machine without a GPU:
#   alice       the solution: pass, 4/4
#   Zoë Müller  tasks 1 and 3 done, task 2 as shipped: wrong-result, 3/4 (a partial)
#   bob         task 1 done in words of his own, task 2 wrong, task 3 as shipped; and a driver
#               edited to print PASS (never used): wrong-result, 2/4 (a partial; tasks 2 and 3
#               need task 1's kernel, and are judged with the reference's, so nothing counts twice)
#   carol       correct, but task 1's kernel calls atoi(), a host function: the simulator accepts
#               it, nvcc does not: compile-error naming nvcc, and no task credit, 0/3 (only where
#               nvcc is installed; issue 25: per-task judging on the simulator gave it 2)
#   dave        task 1 writes far past the end: crash, naming the kernel, block and thread
#   erin        task 1 never ends: timeout, naming the limit (--timeout 5)
#   frank       nothing for the lesson: not-submitted, 0/4
#   gina        a sim compile error in task 3: compile-error with the compiler's first error
# Each verdict is checked in grades.csv, junit.xml, each results.json and summary.txt. Then:
# gpu=yes planted in every cached file changes nothing (the backend is probed each run); a
# grader's fault (a hidden input the program refuses; no GPU when the checks run) is an <error>,
# exit 3 and no zero.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

tree=$SCRATCH/tree
copy_source_tree "$tree"
out=$SCRATCH/out.txt
lesson=$(lesson_folder "$tree" 03) || exit 1
shipped=$SOURCE_ROOT/lessons/$lesson/exercise.cu
solution=$SOURCE_ROOT/solutions/$lesson/solution.cu
have_nvcc=no
if command -v nvcc >/dev/null; then
  have_nvcc=yes
  # (keeping the copies' other settings: -DWB_CCACHE=ON where CI has it, so the simulator is not
  # compiled again)
  export WORKBOOK_CMAKE_ARGS="${WORKBOOK_CMAKE_ARGS//-DWB_CUDA=OFF/} -DWB_CUDA=ON"
fi
printf '# lesson 03 grading\npoints 1 2\n' >"$tree/lessons/$lesson/grading.txt"

# with_task BASE TASK TEXT: BASE with task TASK's region replaced by TEXT (lines).
with_task() {
  awk -v t="$2" -v text="$3" '
    /\/\/ ---- end of task [0-9]+/ { skip = 0 }
    skip { next }
    { print }
    /\/\/ ---- task [0-9]+/ { match($0, /task [0-9]+/); if (substr($0, RSTART + 5, RLENGTH - 5) == t) { print text; skip = 1 } }' "$1"
}
subs=$SCRATCH/submissions
submit() { # STUDENT (stdin: the exercise)
  mkdir -p "$subs/$1/lessons/$lesson"
  cat >"$subs/$1/lessons/$lesson/exercise.cu"
}
submit alice <"$solution"
with_task "$solution" 2 "$(task_text=$(sed -n '/---- task 2/,/end of task 2/p' "$shipped" | sed '1d;$d'); echo "$task_text")" | submit "Zoë Müller"
with_task "$shipped" 1 '  int i = threadIdx.x + blockDim.x * blockIdx.x; // my own words
  if (i >= n) return;
  out[i] = in[i];' | with_task /dev/stdin 2 '  copy_kernel<<<1, n>>>(d_in, d_out, n / 2);' | submit bob
printf '#include <stdio.h>\nint main(void) { puts("PASS"); return 0; }\n' >"$subs/bob/lessons/$lesson/main.c"
with_task "$solution" 1 '  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + (float)atoi("0");' | submit carol
with_task "$solution" 1 '  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i + 300000000] = in[i];' | submit dave
with_task "$solution" 1 '  volatile int forever = 1;
  while (forever) {
  }
  (void)in;
  (void)out;
  (void)n;' | submit erin
mkdir -p "$subs/frank/lessons/$lesson"
echo "I did not do it" >"$subs/frank/lessons/$lesson/notes.txt"
with_task "$solution" 3 '  this is not C at all;' | submit gina

results=$SCRATCH/results
wb "$tree" "$out" grade "$subs" --lessons 3 --output "$results" --timeout 5
check "grade: exit 0" status_is $? 0
check "grade: says where the checks ran (found, not remembered)" grep -q -E '^Checks run on the CPU simulator .*found just now' "$out"
check "grade: says which inputs ran, with its own seed" grep -q -E '^This grade.s seed: [0-9]+' "$out"

csv=$results/grades.csv junit=$results/junit.xml summary=$results/summary.txt
for f in "$csv" "$junit" "$summary" "$results/tasks.txt"; do check "grade: ${f##*/} written" test -s "$f"; done
command -v xmllint >/dev/null && check "junit.xml is well-formed" xmllint --noout "$junit"

# grades.csv: header, then one row per student (CRLF ends, RFC 4180).
check "csv: header" grep -q -F $'student,03 verdict,03 points,03 task 1,03 task 2,03 task 3,total,max\r' "$csv"
row() { grep -F "$1," "$csv" | tr -d '\r'; }
check "csv: alice 4/4" test "$(row alice)" = "alice,pass,4,2,1,1,4,4"
check "csv: Zoë Müller, a partial, gets tasks 1 and 3 (3/4), in UTF-8" test "$(row 'Zoë Müller')" = "Zoë Müller,wrong-result,3,2,0,1,3,4"
check "csv: bob, a partial, gets task 1 only (2/4)" test "$(row bob)" = "bob,wrong-result,2,2,0,0,2,4"
check "csv: dave crashed" grep -q -E '^dave,crash,' <(tr -d '\r' <"$csv")
check "csv: erin timed out" grep -q -E '^erin,timeout,' <(tr -d '\r' <"$csv")
check "csv: frank not submitted, 0" test "$(row frank)" = "frank,not-submitted,0,0,0,0,0,4"
check "csv: gina does not compile" grep -q -E '^gina,compile-error,' <(tr -d '\r' <"$csv")
check "csv: one row per student, and the header" test "$(wc -l <"$csv")" -eq 9

# The console line of each: the verdict and what an instructor can act on.
line() { grep -E "^  $1 +03 " "$out" | head -n 1; }
check "crash names the kernel, block and thread" grep -q -E "crash: out-of-bounds write \(task 1\) in kernel 'copy_kernel', block \([0-9,]+\), thread \([0-9,]+\)" <<<"$(line dave)"
check "timeout names the limit" grep -q -E 'timeout: .* did not finish in 5 s' <<<"$(line erin)"
check "wrong-result names the task" grep -q -E 'wrong-result: FAIL: .*task' <<<"$(line 'Zoë Müller')"
check "compile-error gives the compiler's first error" grep -q -E 'compile-error: does not compile( \(nvcc\))?: exercise.cu:[0-9]+(:[0-9]+)?: error' <<<"$(line gina)"
check "not submitted" grep -q -E 'not-submitted' <<<"$(line frank)"
if [ $have_nvcc = yes ]; then
  check "csv: carol does not compile with nvcc, and earns no task credit" grep -q -E '^carol,compile-error,0,0,0,0,' <(tr -d '\r' <"$csv")
  check "tasks.txt: none of carol's tasks passes" test "$(grep -c -E '^carol 03 [0-9]+ pass$' "$(dirname "$csv")/tasks.txt")" -eq 0
  check "carol: nvcc's message" grep -q -F 'does not compile (nvcc): exercise.cu' <<<"$(line carol)"
  check "carol: ... naming the host function" grep -q -F 'atoi' <<<"$(line carol)"
fi
check "bob: task 2 judged alone, with the reference's task 1" grep -q -E 'task 2 .*fail.*reference' "$results/logs/bob/$lesson.log"
check "bob: his own words for task 1 pass alone" grep -q -E 'task 1 .*pass.*judged with the reference' "$results/logs/bob/$lesson.log"
check "bob: task 1 says its check is shared with task 2" grep -q -E 'task 1 .*pass.*covers tasks 1, 2 together' "$results/logs/bob/$lesson.log"
check "logs: which inputs ran" grep -q -E '^inputs: shipped: --n 1; --n 2' "$results/logs/alice/$lesson.log"
check "logs: the seed's input ran" grep -q -E "^==> $lesson\.exercise\.sim --n 1000 --seed [0-9]+" "$results/logs/alice/$lesson.log"

# junit.xml: failures are the students', no errors.
testcase() { tr '\n' ' ' <"$junit" | grep -o "<testcase classname=\"$1\" name=\"$lesson\"[^>]*>.*" | sed 's|</testcase>.*|</testcase>|'; }
check "junit: alice has no failure" bash -c '! grep -q "<failure" <<<"$1"' _ "$(testcase alice)"
for pair in "Zoë Müller:wrong-result" bob:wrong-result dave:crash erin:timeout frank:not-submitted gina:compile-error; do
  check "junit: ${pair%%:*} is a failure of type ${pair#*:}" grep -q "<failure type=\"${pair#*:}\"" <<<"$(testcase "${pair%%:*}")"
done
check "junit: totals, no errors" grep -q '<testsuites name="workbook grade" tests="8" failures="7" errors="0">' "$junit"
check "junit: the backend" grep -q -E '<property name="backend" value="on the CPU simulator' "$junit"

# results.json, Gradescope's format: a score, and a test per task with score and max_score.
json=$results/Zoë\ Müller/results.json
check "results.json: Zoë Müller's score" grep -q -E '^  "score": 3,' "$json"
check "results.json: a test per task" test "$(grep -c '"max_score"' "$json")" -eq 3
check "results.json: task 2 failed, 0 of 1" grep -q -E '"number": "03.2", "score": 0, "max_score": 1, "status": "failed"' "$json"
check "results.json: task 1 passed, 2 of 2" grep -q -E '"number": "03.1", "score": 2, "max_score": 2, "status": "passed"' "$json"
check "results.json: alice 4" grep -q -E '^  "score": 4,' "$results/alice/results.json"
check "results.json: frank 0" grep -q -E '^  "score": 0,' "$results/frank/results.json"
command -v jq >/dev/null && check "results.json: valid JSON" jq -e '.tests | length == 3' "$json"

# summary.txt: aligned by characters: every row's total starts in the same column.
starts=$(grep -v '^#' "$summary" | while IFS= read -r l; do LC_ALL=C.UTF-8 bash -c 'x=${1%  *}; echo ${#x}' _ "$l"; done | sort -u)
check "summary: the total column starts at one character position in every row ($starts)" test "$(wc -l <<<"$starts")" -eq 1
check "summary: Zoë Müller's row" grep -q -E '^Zoë Müller +3/4:wrong-result +3/4$' "$summary"
check "summary: frank --" grep -q -E '^frank +-- +0/4$' "$summary"
check "summary: says where the checks ran" grep -q -E '^# checks ran on the CPU simulator' "$summary"
check "summary: within 80 columns" test "$(LC_ALL=C.UTF-8 awk 'length($0) > 80' "$summary" | grep -c -v '^#')" -eq 0

# The backend is found, never remembered: gpu=yes planted in every progress file the grade and
# the tree have (as if they came from a GPU node over a shared file system), then a regrade on
# this machine, which has no GPU: the simulator's verdicts, and it says so.
if [ $have_nvcc = yes ]; then
  mkdir -p "$tree/build"
  planted=0
  for f in "$tree/build/workbook-progress.txt" "$results"/work/build/workbook-progress.txt \
    "$results"/work/base/build/workbook-progress.txt $(find "$SCRATCH" -name workbook-progress.txt 2>/dev/null); do
    chmod u+w "$(dirname "$f")" 2>/dev/null
    printf 'gpu=yes\ngpu.detail=NVIDIA H100 (planted)\n' >>"$f" && planted=$((planted + 1))
  done
  check "planted gpu=yes in $planted cached files" test "$planted" -ge 3
  subs3=$SCRATCH/two
  mkdir -p "$subs3"
  cp -r "$subs/alice" "$subs/Zoë Müller" "$subs3/"
  wb "$tree" "$out" grade "$subs3" --lessons 03 --output "$results" --timeout 5
  check "gpu=yes planted: grade exits 0" status_is $? 0
  check "gpu=yes planted: the checks ran on the simulator, and it says so" grep -q -E '^Checks run on the CPU simulator' "$out"
  check "gpu=yes planted: alice passes" grep -q -E '^  alice +03 pass \[4/4\]' "$out"
  check "gpu=yes planted: Zoë Müller gets her 3 of 4" grep -q -E '^  Zoë Müller +03 wrong-result: .*\[3/4\]' "$out"
  check "gpu=yes planted: the log says the simulator" grep -q 'graded on the CPU simulator' "$results/logs/alice/$lesson.log"
fi

# A grader's fault found before any student: a hidden input the program refuses stops the grade
# (status 2, naming it); the shipped program is the judge, never a student's run (issue 25).
# (This grade and the ones below write to the same output folder as the class's: its work folder,
# configured and built, is reused as an instructor's regrade would, and nothing checked above is
# read again.)
subs2=$SCRATCH/one
mkdir -p "$subs2"
cp -r "$subs/alice" "$subs2/"
printf '03 input --no-such-flag 1\n' >"$SCRATCH/grading.txt"
wb "$tree" "$out" grade "$subs2" --lessons 03 --output "$results" --grading "$SCRATCH/grading.txt" --timeout 5
check "a hidden input the program refuses: grade exits 2" status_is $? 2
check "... naming the input" grep -q "hidden input '--no-such-flag 1' is refused by its program" "$out"
check "... before any student" lacks "$out" "  alice "

# A sandbox that passes its probe but cannot start a submission's build (as where user
# namespaces are refused later): the grader's fault, could-not-run, exit 3.
mkdir -p "$SCRATCH/fakebin"
cat >"$SCRATCH/fakebin/bwrap" <<'EOF'
#!/bin/sh
for last; do :; done
[ "$last" = true ] && exit 0
echo "bwrap: Creating new namespace failed: Operation not permitted" >&2
exit 1
EOF
chmod +x "$SCRATCH/fakebin/bwrap"
# (As a terminal would show it: WORKBOOK_WRAP=1 keeps each line within 80 columns.)
PATH=$SCRATCH/fakebin:$PATH WORKBOOK_GRADE_SANDBOX=on WORKBOOK_WRAP=1 wb "$tree" "$out" grade "$subs2" --lessons 03 --output "$results" --timeout 5
check "a sandbox that does not start: grade exits 3" status_is $? 3
check "a sandbox that does not start: could-not-run, saying so" grep -q -E '^  alice +03 could-not-run: the sandbox did not start' "$out"
check "could not run: a JUnit <error>, not a failure" grep -q '<error type="could-not-run"' "$results/junit.xml"
check "could not run: errors=1" grep -q 'errors="1"' "$results/junit.xml"
check "could not run: an empty cell, not a zero" test "$(grep -F 'alice,' "$results/grades.csv" | tr -d '\r')" = "alice,could-not-run,,,,,,4"
check "could not run: no results.json (Gradescope shows an autograder failure)" test ! -e "$results/alice/results.json"
check "wrapped for a terminal: every line within 80 columns (but the work folder's)" \
  bash -c '! grep -v -F "$2" "$1" | LC_ALL=C.UTF-8 grep -q -E "^.{81}"' _ "$out" "$SCRATCH"

# A GPU that is not there when the checks run (forced with WORKBOOK_BACKEND=cuda, as if it went
# away after the probe): every check is could-not-run, never a FAIL, and grade exits 3.
if [ $have_nvcc = yes ]; then
  WORKBOOK_BACKEND=cuda wb "$tree" "$out" grade "$subs2" --lessons 03 --output "$results" --timeout 5
  check "no GPU at run time: grade exits 3" status_is $? 3
  check "no GPU at run time: could not run, saying why" grep -q -E '^  alice +03 could-not-run: no CUDA device' "$out"
  check "no GPU at run time: a JUnit <error>" grep -q '<error type="could-not-run"' "$results/junit.xml"
fi

# Bad input: one line, exit 2.
wb "$tree" "$out" grade "$SCRATCH/no-such-folder"
check "grade of a missing folder: exit 2" status_is $? 2
wb "$tree" "$out" grade "$subs" --lessons 42
check "a lesson that does not exist: exit 2" status_is $? 2
check "... saying so" contains "$out" "there is no lesson 42"
wb "$tree" "$out" grade "$subs" --timeout soon
check "a bad --timeout: exit 2" status_is $? 2
wb "$tree" "$out" grade "$subs" --seed 1
check "--seed 1 (the shipped inputs, which a table of answers passes): exit 2" status_is $? 2
check "... saying so" contains "$out" "seed 1 gives the shipped inputs"
finish
