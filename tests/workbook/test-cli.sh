#!/usr/bin/env bash
# unit.workbook.cli: the command line itself, without building anything: --help for every
# command, bad input (one line, exit 2), plain output when not on a terminal, hints one at a time
# and remembered, doctor on a tree that was never configured.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

tree=$SCRATCH/tree
copy_source_tree "$tree"
out=$SCRATCH/out.txt
lesson=$(lesson_folder "$tree" "$TEST_LESSON_NUMBER") || exit 1
tree_files() { (cd "$tree" && find . -path ./build -prune -o -type f -print0 | sort -z | xargs -0 sha256sum); }
tree_files >"$SCRATCH/before.txt"

fits_80_columns() { # FILE: every line at most 80 characters (not bytes)
  local line status=0 LC_ALL=C.UTF-8
  while IFS= read -r line; do
    [ ${#line} -le 80 ] || { echo "too wide (${#line}): $line"; status=1; }
  done <"$1"
  return $status
}

# --help, for the script and for each command.
wb "$tree" "$out" --help
check "--help exits 0 and lists the commands" status_is $? 0
check "--help fits 80 columns" fits_80_columns "$out"
for command in check run watch hint reset doctor export grade report profile; do
  check "--help lists $command" grep -q -E "^  $command( |$)" "$out"
done
for command in check run watch hint reset doctor export grade report profile; do
  wb "$tree" "$out" "$command" --help
  check "$command --help exits 0" status_is $? 0
  check "$command --help starts with its usage" grep -q "^Usage: .*workbook $command" "$out"
  check "$command --help fits 80 columns" fits_80_columns "$out"
done
wb "$tree" "$out" help grade
check "help grade shows the grade usage" contains "$out" "SUBMISSIONS_DIR"

# Bad input: one clear line, exit 2.
expect_usage_error() { # DESCRIPTION ARGS...
  local what=$1
  shift
  wb "$tree" "$out" "$@"
  local status=$?
  check "$what: exit 2" status_is $status 2
  check "$what: one line" test "$(wc -l <"$out")" -eq 1
}
expect_usage_error "unknown command" frobnicate
expect_usage_error "unknown lesson" check 99
expect_usage_error "not a lesson number" hint banana
expect_usage_error "missing lesson" check
expect_usage_error "unknown option" run "$TEST_LESSON_NUMBER" --fast
wb "$tree" "$out" check 99
check "the unknown-lesson line names the lessons" contains "$out" "lessons: 01"
# The sanitizer checks' settings: a wrong value is one line before any build.
WORKBOOK_SANITIZER_TIMEOUT=soon expect_usage_error "WORKBOOK_SANITIZER_TIMEOUT=soon" check 07 --asan
check "WORKBOOK_SANITIZER_TIMEOUT=soon: says what it wants" contains "$out" "must be a number of seconds"
WORKBOOK_RACE_MAX_N=lots expect_usage_error "WORKBOOK_RACE_MAX_N=lots" check 07 --race
WORKBOOK_PROGRESS=sometimes expect_usage_error "WORKBOOK_PROGRESS=sometimes" check "$TEST_LESSON_NUMBER"
check "WORKBOOK_PROGRESS=sometimes: names the choices" contains "$out" "must be tty, lines or off"
WORKBOOK_PROGRESS_AFTER=soon expect_usage_error "WORKBOOK_PROGRESS_AFTER=soon" check "$TEST_LESSON_NUMBER"
check "WORKBOOK_PROGRESS_AFTER=soon: says what it must be" contains "$out" "WORKBOOK_PROGRESS_AFTER must be a whole number of seconds, not 'soon'"
WORKBOOK_PROGRESS_SECONDS=0 expect_usage_error "WORKBOOK_PROGRESS_SECONDS=0" check "$TEST_LESSON_NUMBER"
check "WORKBOOK_PROGRESS_SECONDS=0: says what it must be" contains "$out" "WORKBOOK_PROGRESS_SECONDS must be a whole number of seconds, not '0'"
check "the bad settings built nothing" test ! -e "$tree/build-asan" -a ! -e "$tree/build-race"
# check --race says where its sizes stop: the workbook's default is run-lesson.sh's.
wb "$tree" "$out" check --help
check "check --help: --race stops at --n 5000" contains "$out" "stops at --n 5000"
check "check --help: how to give a sanitizer more time" contains "$out" "WORKBOOK_SANITIZER_TIMEOUT"
check "WORKBOOK_RACE_MAX_N: one default in the workbook and run-lesson.sh" bash -c \
  'grep -q "race_max_n=\${WORKBOOK_RACE_MAX_N:-\${WB_LESSON_RACE_MAX_N:-5000}}" "$1/shared/cmake/run-lesson.sh" &&
   grep -q "\${WORKBOOK_RACE_MAX_N:-\${lesson_max:-5000}}" "$1/workbook"' _ "$tree"


# Hints: one at a time, in order, remembered between runs; after the last, the last again.
hints=$tree/lessons/$lesson/hints.md
total=$(grep -c '^## Hint [0-9]' "$hints")
check "lesson $TEST_LESSON_NUMBER has at least two hints" test "$total" -ge 2
for k in $(seq 1 "$total"); do
  wb "$tree" "$out" hint "$TEST_LESSON_NUMBER"
  check "hint run $k: exit 0" status_is $? 0
  check "hint run $k shows hint $k of $total" contains "$out" "Hint $k of $total"
  check "hint run $k shows the text of hint $k" contains "$out" "$(hint_section "$hints" "$k" | head -n 1 | cut -c1-60)"
  check "hint run $k fits 80 columns" fits_80_columns "$out"
  if [ "$k" -lt "$total" ]; then
    check "hint run $k does not show hint $((k + 1))" lacks "$out" "$(hint_section "$hints" $((k + 1)) | head -n 1 | cut -c1-60)"
  fi
done
wb "$tree" "$out" hint "$TEST_LESSON_NUMBER"
check "after the last hint, the last one again" contains "$out" "Hint $total of $total (the last one"
check "hints are remembered in the progress file in the build folder" \
  grep -q "^$TEST_LESSON_NUMBER.hints=$total\$" "$tree/build/workbook-progress.txt"
wb "$tree" "$out" hint 2
check "another lesson's hints start at 1" contains "$out" "Hint 1 of"

# Output is plain when it is not a terminal (here a file): no escape sequences.
unset NO_COLOR
wb "$tree" "$out" hint "$TEST_LESSON_NUMBER"
check "no colour codes when the output is not a terminal" lacks "$out" $'\e['
if command -v script >/dev/null; then
  # On a terminal there is colour, unless NO_COLOR says no.
  script -q -e -c "$tree/workbook hint $TEST_LESSON_NUMBER" /dev/null >"$out" 2>&1 </dev/null
  check "colour on a terminal" contains "$out" $'\e['
  NO_COLOR=1 script -q -e -c "$tree/workbook hint $TEST_LESSON_NUMBER" /dev/null >"$out" 2>&1 </dev/null
  check "no colour on a terminal with NO_COLOR" lacks "$out" $'\e['
fi
export NO_COLOR=1

# doctor on a tree never configured: says what it found, and that the backend is not probed yet.
wb "$tree" "$out" doctor
status=$?
check "doctor: exit 0 where cmake and compilers exist" status_is $status 0
check "doctor reports cmake" grep -q '^  cmake  .*[0-9]\.[0-9]' "$out"
check "doctor reports the C compiler" grep -q '^  C compiler ' "$out"
check "doctor reports nvcc (found or not)" grep -q '^  nvcc ' "$out"
check "doctor reports the driver (found or not)" grep -q '^  driver ' "$out"
check "doctor reports inotifywait (found or not)" grep -q '^  inotifywait ' "$out"
check "doctor reports the backend" grep -q '^  backend ' "$out"

# The script never writes into tracked files: only build/ (and nothing else) is new.
tree_files >"$SCRATCH/after.txt"
check "outside the build folder, no file was added or changed" cmp -s "$SCRATCH/before.txt" "$SCRATCH/after.txt"

finish
