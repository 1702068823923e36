#!/usr/bin/env bash
# run-corpus.sh SOURCE_ROOT MODE...: grade the cheat corpus (tests/grading/cheats/) in each MODE, in
# turn and in one work folder (the grading build is made once), and check that every submission
# gets its verdict and reason.
#   MODE cheats      the rules on, the sandbox where it works: expect files `expect`
#   MODE rules-off   WORKBOOK_GRADE_RULES=off: what the verdict record and the sandbox catch
#                    alone (`expect-rules-off`)
#   MODE no-sandbox  the rules off and WORKBOOK_GRADE_SANDBOX=off: what the record, the fresh
#                    copy per submission and the process groups catch alone (`expect-no-sandbox`)
#   MODE nvcc        the cheats with an `expect-nvcc` file, graded with the CUDA toolkit
#                    (-DWB_CUDA=ON), nvcc being the compiler of record; skipped without nvcc
# A cheat is a folder NAME/ (the student) holding NN-slug/exercise.* and one-line files with the
# extended regular expression its grade line must match after "NN " (e.g. "^refused: "); an
# optional setup.sh makes what git cannot hold (links, absolute paths: $STUDENT, $SUBMISSIONS,
# $TREE). `expect.pending` marks a cheat not caught yet: it is graded and reported, not counted.
source "$(dirname "${BASH_SOURCE[0]}")/../workbook/lib.sh"
shift
[ $# -gt 0 ] || { echo "usage: $0 SOURCE_ROOT cheats|rules-off|no-sandbox|nvcc..."; exit 2; }
# A short time limit per run: the endless loop costs this much (twice per mode: its run and its
# task judged alone), and an orphan must add no more. 4 s is ten times the longest correct run
# of the corpus (lesson 08 --n 1000003: 0.4 s of CPU on the simulator). The other limits small
# too (issue 25, item 6): a build may take 15 s (build-time-bomb costs that in CPU, twice: its own
# build and its task judged alone; a graded build of the corpus, with Ninja, needs under 1 s of
# CPU, so 15 s leaves it room on a loaded machine) and 1 GiB per process, a run 256 MiB per
# process and 64 processes.
export WORKBOOK_GRADE_TIMEOUT=4 WORKBOOK_GRADE_BUILD_TIMEOUT=15 WORKBOOK_GRADE_BUILD_MEMORY=1024
export WORKBOOK_GRADE_RUN_MEMORY=256 WORKBOOK_GRADE_RUN_PROCS=64
# WORKBOOK_CORPUS_ONLY=REGEX grades only the cheats whose name matches (while developing).
only=${WORKBOOK_CORPUS_ONLY:-}
corpus=$SOURCE_ROOT/tests/grading/cheats
marker=/tmp/workbook-grading-cheat-marker
setsid_marker=/tmp/workbook-grading-setsid-marker
tree=$SCRATCH/tree
copy_source_tree "$tree"
out=$SCRATCH/out.txt
# The gradebook and the submissions inside the checkout, as an instructor may keep them: the
# graded tree must hold neither, nor nest on a regrade (each mode regrades into the same folder).
results=$tree/grades
# A grading file with a secret in it (read-hidden-files looks for it).
printf '03 input --n 777 # SECRET-GRADING-FILE\n' >"$tree/grading-extra.txt"

# The gradebooks are valid whatever the students printed or named their folders (issue 25): XML
# that xmllint reads, JSON that jq reads, no terminal escape anywhere, output cut per run, messages
# from the verdict record, and the names graded under their names or skipped with a reason.
grade_corpus_checks() {
  local file esc=$'\033'
  if command -v xmllint >/dev/null; then
    check "junit.xml is well-formed XML (xmllint --noout)" xmllint --noout "$results/junit.xml"
  else
    echo "skip - xmllint is not installed (apt install libxml2-utils): junit.xml not validated"
  fi
  if command -v jq >/dev/null; then
    for file in "$results"/*/results.json "$results"/.[!.]*/results.json; do
      [ -f "$file" ] || continue
      check "${file#"$results"/} is valid JSON (jq)" bash -c 'jq -e . "$1" >/dev/null' _ "$file"
    done
  else
    echo "skip - jq is not installed: results.json not validated"
  fi
  for file in junit.xml grades.csv summary.txt tasks.txt; do
    check "$file: no terminal escape" lacks "$results/$file" "$esc"
  done
  check "console: no terminal escape" lacks "$out" "$esc"
  if runs hostile-output; then
    check "hostile-output: its output is cut in the log" grep -q -E 'output cut at 65536 bytes' "$results/logs/hostile-output/03-hello-copy.log"
    check "hostile-output: junit.xml stays small ($(stat -c %s "$results/junit.xml") bytes)" test "$(stat -c %s "$results/junit.xml")" -lt 4000000
    check "hostile-output: the forged FAIL line is not the message" bash -c '! grep -q "by hand" <<<"$1"' _ "$(line_of hostile-output)"
    check "hostile-output: invalid UTF-8 shows as U+FFFD in the log" grep -q -F $'bad utf-8 \xef\xbf\xbd' "$results/logs/hostile-output/03-hello-copy.log"
  fi
  if runs setsid-grandchild; then
    sleep 3
    check "setsid-grandchild: the grandchild did not outlive grade (no marker)" test ! -e "$setsid_marker"
  fi
  if [ -n "${expect[names]:-}" ]; then
    check "names: .hidden is graded" grep -q -E '^  \.hidden +03 wrong-result' "$out"
    check "names: =2+5 is a quoted, prefixed CSV cell" grep -q -F "\"'=2+5\",wrong-result," "$results/grades.csv"
    check "names: a literal \\n forges no tasks.txt line" test "$(grep -c -v -E '^[^ ]+ [0-9]{2} [0-9]+ [a-z-]+$' "$results/tasks.txt")" -eq 0
    check "names: lit\\nx has its 3 tasks" test "$(grep -c -F 'lit\nx 03 ' "$results/tasks.txt")" -eq 3
    check "names: lit\\nx's task 2 is judged from its own path (spliced: pass)" grep -q -x -F 'lit\nx 03 2 pass' "$results/tasks.txt"
    check "names: lit\\nx's wrong task 1 fails" grep -q -x -F 'lit\nx 03 1 fail' "$results/tasks.txt"
    check "names: summary.txt is skipped with the reason" grep -q -F "summary.txt: its name is one of grade's own files" "$results/skipped.txt"
    check "names: the newline name is skipped with the reason" grep -q -F "\$'new\\nline': its name has control characters" "$results/skipped.txt"
    check "names: summary.txt is still the table" grep -q -E '^# workbook grade' "$results/summary.txt"
    check "names: the skips are in summary.txt" grep -q -E '^# skipped: ' "$results/summary.txt"
  fi
}
# Issue 25, items 3, 4 and 6: could-not-run only from the grader's evidence, the graded tree is the
# course alone, and the limits hold.
limit_checks() {
  local log got secret where
  if runs run-memory-hog; then
    log=$results/logs/run-memory-hog/03-hello-copy.log
    got=$(sed -n 's/^hog: got \([0-9]*\) MiB$/\1/p' "$log" | sort -n | tail -n 1)
    # A memory cgroup of the run's own (where grade runs as root) holds it to 256 MiB (killed, or
    # out of time while the kernel reclaims); without one the run has no memory limit (grade warns).
    if [ "$("$SOURCE_ROOT/shared/workbook/limits.sh" --probe)" = cgroup ]; then
      check "run-memory-hog: the run got less than 512 MiB (${got:-0} MiB, limit $WORKBOOK_GRADE_RUN_MEMORY)" test "${got:-0}" -lt 512
    else
      echo "skip - run-memory-hog: no cgroup can be made here: no run memory limit to check"
      check "run-memory-hog: grade says the run memory limit is not enforced" grep -q 'run-memory is not enforced' "$out"
    fi
  fi
  if runs fork-loop; then
    log=$results/logs/fork-loop/03-hello-copy.log
    got=$(sed -n 's/^forks: \([0-9]*\)$/\1/p' "$log" | sort -n | tail -n 1)
    check "fork-loop: at most $WORKBOOK_GRADE_RUN_PROCS processes (${got:-?} started)" test "${got:-9999}" -le "$WORKBOOK_GRADE_RUN_PROCS"
  fi
  if runs read-hidden-files; then
    where=("$results/read-hidden-files/results.json")
    # In the sandbox nothing of it is readable: not even the logs (the instructor's) hold it.
    [ "$mode" = no-sandbox ] || [ ${#sandbox_choice[@]} -gt 0 ] || where+=("$results/logs/read-hidden-files")
    check "read-hidden-files: results.json exists" test -f "$results/read-hidden-files/results.json"
    for secret in SECRET-LESSON-GRADING SECRET-GRADING-FILE SECRET-GIT-HEAD 'int i = blockIdx.x * blockDim.x + threadIdx.x'; do
      check "read-hidden-files: '$secret' is in no ${where[*]##*/}" bash -c '! grep -r -q -F -e "$1" "${@:2}"' _ "$secret" "${where[@]}"
    done
    check "read-hidden-files: its task 3 was judged alone (the splice ran)" test -s "$results/logs/read-hidden-files/03-hello-copy.task-3.log"
  fi
  if runs regrade-does-not-nest; then
    # The graded tree: the harness and the graded lessons, nothing else (git's files or the
    # allow-list), however many times grade ran into a folder inside the checkout.
    local graded=$results/work/tree extra
    extra=$(cd "$graded" && find . -mindepth 1 -maxdepth 1 ! -name workbook ! -name CMakeLists.txt ! -name CMakePresets.json ! -name shared ! -name lessons)
    check "regrade-does-not-nest: the graded tree holds only the course (extra: ${extra:-none})" test -z "$extra"
    check "regrade-does-not-nest: no grading.txt in the graded tree" test -z "$(find "$graded" -name grading.txt)"
    check "regrade-does-not-nest: only the graded lessons" test -z "$(cd "$graded/lessons" && ls | grep -v -x -E '03-hello-copy|08-primes')"
    check "regrade-does-not-nest: the work folder stays small ($(du -sm "$results/work" | cut -f1) MiB)" test "$(du -sm "$results/work" | cut -f1)" -lt 60
    # Nothing one run leaves may be loaded by another: no NVRTC module cache in the graded tests'
    # environment, and no precompiled prelude copied with every submission (grade.sh).
    check "graded build: no NVRTC module cache for its tests" \
      bash -c 'compgen -G "$1/lessons/*/CTestTestfile.cmake" >/dev/null &&
        ! grep -q -F CUSIM_NVRTC_CACHE "$1"/lessons/*/CTestTestfile.cmake' _ "$results/work/build"
    check "graded build: no precompiled prelude" test ! -e "$results/work/build/cusim-prelude"
  fi
  for name in bwrap-text-forged static-assert-bwrap; do
    if [ -n "${expect[$name]:-}" ]; then
      check "$name: no could-not-run for text the student printed" bash -c '! grep -q "could-not-run" <<<"$1"' _ "$(line_of "$name")"
    fi
  done
}
run_mode() { # MODE
mode=$1
unset WORKBOOK_GRADE_RULES WORKBOOK_GRADE_SANDBOX
case $mode in
  cheats) expect_name=expect ;;
  nvcc)
    # The cheats nvcc must judge (an expect-nvcc file): graded again with the CUDA toolkit, where
    # it is installed (the other modes build for the simulator alone, -DWB_CUDA=OFF in CI).
    # The rules are off here, so that what reaches nvcc is what a cheat wrote (has-include-solution:
    # nvcc runs in the sandbox, where the solution's path does not exist); no case here needs them.
    expect_name=expect-nvcc
    export WORKBOOK_GRADE_RULES=off
    if ! command -v nvcc >/dev/null; then
      echo "=== mode nvcc"
      echo "skip - nvcc is not installed: the cheats with an expect-nvcc file are not graded with it"
      return 0
    fi ;;
  rules-off) expect_name='expect-rules-off'; export WORKBOOK_GRADE_RULES=off ;;
  no-sandbox) expect_name='expect-no-sandbox'; export WORKBOOK_GRADE_RULES=off WORKBOOK_GRADE_SANDBOX=off ;;
  *) echo "unknown mode $mode"; exit 2 ;;
esac
echo "=== mode $mode"
rm -f "$marker"
subs=$tree/submissions-$mode
mkdir -p "$subs"
expect=() pending=()
for dir in "$corpus"/*/; do
  dir=${dir%/}
  name=${dir##*/}
  [ -z "$only" ] || [[ $name =~ $only ]] || continue
  if [ -f "$dir/$expect_name" ]; then
    expect[$name]=$(head -n 1 "$dir/$expect_name")
  elif [ "$mode" = cheats ] && [ -f "$dir/expect.pending" ]; then
    pending[$name]=$(head -n 1 "$dir/expect.pending")
  else
    continue
  fi
  mkdir -p "$subs/$name"
  (cd "$dir" && find . -mindepth 1 -maxdepth 1 -type d -exec cp -r {} "$subs/$name/" \;)
  [ ! -f "$dir/setup.sh" ] || STUDENT=$subs/$name SUBMISSIONS=$subs TREE=$tree bash "$dir/setup.sh"
done
# (only lines that end in NN-slug: a student's name may hold a newline)
lessons=$(cd "$subs" && find . -mindepth 2 -maxdepth 2 -type d -name '[0-9][0-9]-*' | sed -n 's|.*/\([0-9][0-9]\)-[^/]*$|\1|p' | sort -u | paste -sd,)

# Grading without a sandbox is a choice: where bubblewrap does not work here, the modes that want
# it grade with --no-sandbox (in CI it is installed: .ci/run).
sandbox_choice=()
if [ "$mode" != no-sandbox ] && ! "$SOURCE_ROOT/shared/workbook/sandbox.sh" --probe >/dev/null 2>&1; then
  echo "note: bubblewrap does not work here: mode $mode grades with --no-sandbox"
  sandbox_choice=(--no-sandbox)
fi
rm -f "$setsid_marker"

started=$(date +%s)
if [ "$mode" = nvcc ]; then
  WORKBOOK_CMAKE_ARGS="${WORKBOOK_CMAKE_ARGS:-} -DWB_CUDA=ON" wb "$tree" "$out" grade "$subs" --lessons "$lessons" --output "$results" --grading "$tree/grading-extra.txt" "${sandbox_choice[@]}"
else
  wb "$tree" "$out" grade "$subs" --lessons "$lessons" --output "$results" --grading "$tree/grading-extra.txt" "${sandbox_choice[@]}"
fi
status=$?
# Exit 4: a student's entry was skipped (the names case skips two, on purpose).
if [ -n "${expect[names]:-}" ]; then check "grade: exit 4 (names skipped)" status_is $status 4
else check "grade: exit 0" status_is $status 0
fi
echo "grade took $(($(date +%s) - started)) s"

cheat_lesson() { # STUDENT: the NN of the lesson it submitted
  (cd "$subs/$1" && ls -d [0-9][0-9]-* | head -n 1 | cut -c1-2)
}
line_of() { # STUDENT: the verdict after "NN " on its grade line for its lesson
  sed -n "s/^  $1 \{1,\}$(cheat_lesson "$1") //p" "$out" | head -n 1
}
runs() { [ -n "${expect[$1]:-}" ] && [[ ${expect[$1]} != "^refused"* ]]; } # STUDENT: graded and run
# In mode nvcc the grading build must have nvcc's check of each lesson graded (else the mode proves
# nothing): the toolkit was found.
if [ "$mode" = nvcc ]; then
  for name in "${!expect[@]}"; do
    check "nvcc: the grading build checks $name's lesson with nvcc" grep -q -F "$(cd "$subs/$name" && ls -d [0-9][0-9]-* | head -n 1).exercise.nvcc" "$results"/work/build/lessons/*/CTestTestfile.cmake
  done
fi
for name in "${!expect[@]}"; do
  got=$(line_of "$name")
  if grep -q -E -- "${expect[$name]}" <<<"$got"; then
    pass "$name: $got"
  else
    fail "$name: got '$got', want /${expect[$name]}/"
  fi
done
for name in "${!pending[@]}"; do
  got=$(line_of "$name")
  if grep -q -E -- "${pending[$name]}" <<<"$got"; then
    echo "note - $name is caught now ($got): rename its expect.pending to expect"
  else
    echo "pending - $name: $got (not caught yet)"
  fi
done

# The Done-when tests.
if runs orphan-child; then
  # An orphaned child adds no more than the time limit: its whole grading (build included) stays
  # under the limit plus the build's time, where the child alone would hold on for 300 s.
  seconds=$(tr '\n' ' ' <"$results/junit.xml" | grep -o '<testcase classname="orphan-child" name="03-hello-copy" time="[0-9.]*"' | sed 's/.*time="\([0-9]*\).*/\1/')
  check "an orphaned child adds no more than the time limit (${seconds:-?} s)" test "${seconds:-999}" -lt $((WORKBOOK_GRADE_TIMEOUT + 60))
  check "no orphan is left running" bash -c '! pgrep -f "^$1" >/dev/null' _ "$results/work/build/bin/"
fi
if runs rewrite-course-files; then
  # The grade of one submission cannot change another's: after rewrite-course-files ran (and, out
  # of the sandbox, did rewrite its copy), the next submission's endless loop still times out, and
  # the course files left in the work folder are the shipped ones.
  check "one submission cannot change another's: the victim timed out" grep -q 'TIMEOUT' "$results/logs/rewrite-victim-loop/03-hello-copy.log"
  if [ "$mode" = no-sandbox ]; then
    check "out of the sandbox the rewrite did happen (in its own copy)" grep -q 'cheat: rewrote' "$results/logs/rewrite-course-files/03-hello-copy.log"
  else
    check "in the sandbox the rewrite was refused" grep -q 'cheat: could not write .*Read-only' "$results/logs/rewrite-course-files/03-hello-copy.log"
  fi
  check "the base copy is the shipped run-lesson.sh" cmp -s "$results/work/base/tree/shared/cmake/run-lesson.sh" "$SOURCE_ROOT/shared/cmake/run-lesson.sh"
fi
if runs write-outside; then
  check "a file written outside the sandbox's /tmp does not appear" test ! -e "$marker"
fi
grade_corpus_checks
limit_checks
if [ "$mode" = no-sandbox ]; then
  check "no sandbox: one warning line says so" grep -q -E '^warning: no sandbox \(WORKBOOK_GRADE_SANDBOX=off\)' "$out"
elif "$SOURCE_ROOT/shared/workbook/sandbox.sh" --probe >/dev/null 2>&1; then
  check "the sandbox works here: no warning" lacks "$out" "warning: no sandbox"
fi
if [ -n "${expect[correct]:-}" ]; then
  check "tasks.txt: the correct submission passes every task" grep -q -E '^correct 03 3 pass$' "$results/tasks.txt"
fi
if [ -n "${expect[kernel-calls-rand]:-}" ]; then
  # The verdict and the points agree in every gradebook: nvcc rejects the lesson, no task earns.
  check "kernel-calls-rand: no task passes in tasks.txt" test "$(grep -c -E '^kernel-calls-rand 04 [0-9]+ pass$' "$results/tasks.txt")" -eq 0
  check "kernel-calls-rand: its 3 tasks fail in tasks.txt" test "$(grep -c -E '^kernel-calls-rand 04 [0-9]+ fail$' "$results/tasks.txt")" -eq 3
  check "kernel-calls-rand: grades.csv says compile-error with 0 points" grep -q -E '^kernel-calls-rand,(.*,)?compile-error,0,0,0,0([^0-9]|$)' "$results/grades.csv"
  check "kernel-calls-rand: junit.xml fails it with 0 points" bash -c 'tr "\n" " " <"$1" | grep -q -E "<testcase classname=\"kernel-calls-rand\" name=\"04-doubling-large-arrays\"[^>]*> *<properties><property name=\"points\" value=\"0\"/>[^<]*(<property [^>]*/>)*</properties> *<failure type=\"compile-error\""' _ "$results/junit.xml"
  if command -v jq >/dev/null; then
    check "kernel-calls-rand: results.json gives 0 points" bash -c 'jq -e ".score == 0" "$1" >/dev/null' _ "$results/kernel-calls-rand/results.json"
  fi
fi
if [ -n "${expect[wrong-answer]:-}" ]; then
  check "tasks.txt: the wrong answer fails a task" grep -q -E '^wrong-answer 03 [0-9]+ fail$' "$results/tasks.txt"
fi
}

declare -A expect=() pending=()
for mode in "$@"; do run_mode "$mode"; done
# Without a working bubblewrap, grade refuses unless --no-sandbox says so (a fake bwrap that
# always fails stands for one that cannot start): status 2, naming the choice, before any build.
fake=$SCRATCH/fake-bwrap
mkdir -p "$fake"
printf '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n' >"$fake/bwrap"
chmod +x "$fake/bwrap"
mkdir -p "$SCRATCH/one/amy"
(unset WORKBOOK_GRADE_SANDBOX; PATH=$fake:$PATH wb "$tree" "$SCRATCH/refused.txt" grade "$SCRATCH/one" --lessons 03 --output "$SCRATCH/refused")
check "no sandbox, no --no-sandbox: grade refuses (status 2)" status_is $? 2
check "the refusal names --no-sandbox and the risk" grep -q -E 'no sandbox .*--no-sandbox.*as you' "$SCRATCH/refused.txt"
check "the refusal came before any build" test ! -e "$SCRATCH/refused/work/build"

# Where bubblewrap is missing, the probe says so in one line (grade prints it as its warning).
probe=$(env PATH=/nonexistent /bin/bash "$SOURCE_ROOT/shared/workbook/sandbox.sh" --probe)
check "sandbox probe without bwrap: fails" status_is $? 1
check "sandbox probe without bwrap: says why" test "$probe" = "bwrap is not installed"
finish
