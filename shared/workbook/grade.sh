# shellcheck shell=bash
# grade.sh: `workbook grade`, the instructor's grader (sourced by workbook, not run).
# Uses the workbook's helpers (check_lesson, backend_for, ...), its settings and copy_tree from
# export.sh.

# --- grade SUBMISSIONS_DIR ---------------------------------------------------------------------
help_grade() {
  cat <<EOF
Usage: $WB_NAME grade SUBMISSIONS_DIR [--lessons NN,NN] [--output DIR]

SUBMISSIONS_DIR holds one folder per student, each a copy of lessons/ (or of the whole tree, with
lessons/ inside). Only each student's exercise files (exercise.cu, exercise.c) are used: they are
built into a pristine copy of this tree (its drivers, references, tests; no solutions/), so editing
anything else cannot help. Graded lessons: --lessons, else every lesson someone submitted.
Writes DIR/junit.xml (one testsuite per student, one testcase per lesson), DIR/summary.txt
(student x lesson) and DIR/logs/STUDENT/NN-slug.log; DIR defaults to $BUILD/grade.
Runs on the GPU when there is a usable one, otherwise on the CPU simulator, and says which.
WORKBOOK_CMAKE_ARGS apply to the pristine build.
Each submission gets a fresh copy of that tree and build, runs in bubblewrap
(read-only, no network; a warning where it is missing) and passes only with the
driver's verdict record. WORKBOOK_GRADE_TIMEOUT=SECONDS: the time limit of a
run (60). Also writes DIR/tasks.txt: a verdict per student, lesson and task.
EOF
}
xml_escape() { # stdin -> stdout, safe inside XML text and attributes
  tr -d '\000-\010\013\014\016-\037' | sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g'
}
submitted_exercise() { # STUDENT-LESSONS-DIR NN-slug -> the student's exercise file, or nothing
  local root=$1 lesson=$2 name candidate
  name=$(exercise_file "$lesson")
  name=${name##*/}
  for candidate in "$root/$lesson/$name" "$root/${lesson%%-*}"-*/"$name"; do
    # A link is returned too: screen_submission refuses it by name.
    [ -f "$candidate" ] || [ -L "$candidate" ] && { echo "$candidate"; return; }
  done
}
# What a submission may be: its exercise file, a plain file (no link anywhere on its path from the
# student's folder), of a sane size, and within the rules (submission-rules.sh). Other files in the
# lesson's folder are never used; any that the lesson does not ship is named in the log, so that
# nobody believes a helper file was graded. Prints the reasons; status 1 refuses the submission.
screen_submission() { # STUDENT-DIR FILE NN-slug
  local student_dir=$1 file=$2 lesson=$3 path=$2 name rel extra
  name=${file##*/}
  while [ "$path" != "$student_dir" ] && [ "${#path}" -gt "${#student_dir}" ]; do
    if [ -L "$path" ]; then
      echo "refused: ${path#"$student_dir"/} is a symbolic link (submit the file itself, not a link to one)"
      return 1
    fi
    path=${path%/*}
  done
  if [ ! -f "$file" ]; then
    echo "refused: ${file#"$student_dir"/} is not a regular file"
    return 1
  fi
  if [ "$(wc -c <"$file")" -gt 1048576 ]; then
    echo "refused: ${file#"$student_dir"/} is larger than 1 MiB"
    return 1
  fi
  for extra in "${file%/*}"/* "${file%/*}"/.[!.]*; do
    [ -e "$extra" ] || [ -L "$extra" ] || continue
    rel=${extra##*/}
    [ "$rel" = "$name" ] && continue
    [[ $rel == "$name".*.bak ]] && continue
    if [ -L "$extra" ]; then
      echo "ignored: ${extra#"$student_dir"/} is a symbolic link (only $name is graded)"
    elif [ ! -e "$WB_ROOT/lessons/$lesson/$rel" ]; then
      echo "ignored: ${extra#"$student_dir"/} is not one of the lesson's files (only $name is graded)"
    fi
  done
  local shipped=$GRADE_SHIPPED/$lesson/$name
  if [ "${WORKBOOK_GRADE_RULES:-on}" = off ]; then
    echo "warning: WORKBOOK_GRADE_RULES=off: the submission rules are not applied (for testing the sandbox only)"
    return 0
  fi
  bash "${WB_SELF%/*}/shared/workbook/submission-rules.sh" "$shipped" "$file" "$name" | sed 's/^/refused: /'
  [ "${PIPESTATUS[0]}" -eq 0 ]
}
# --- Isolation and the trusted verdict ---------------------------------------------------------
# Each submission is built and run in a fresh copy of the pristine tree and its build (restored
# from GRADE_BASE before every student's lesson), so nothing one run writes reaches another. The
# program runs inside bubblewrap where it works (shared/workbook/sandbox.sh: all read-only, no
# network, private /tmp, its own PID namespace); where it does not, grade says so once and goes on.
GRADE_BASE='' GRADE_SANDBOX=''
grade_sandbox_setup() { # sets GRADE_SANDBOX, or warns
  local sandbox=${WB_SELF%/*}/shared/workbook/sandbox.sh why
  GRADE_SANDBOX=''
  if [ "${WORKBOOK_GRADE_SANDBOX:-on}" = off ]; then
    why="WORKBOOK_GRADE_SANDBOX=off"
  elif why=$("$sandbox" --probe 2>&1); then
    GRADE_SANDBOX=$sandbox
    return
  fi
  [ ${#why} -le 50 ] || why="${why:0:47}..."
  warn "warning: no sandbox ($why): submissions run as you"
}
grade_snapshot() { # TREE BUILD: keep both as the base every submission starts from
  GRADE_BASE=${2%/*}/base
  rm -rf "$GRADE_BASE"
  mkdir -p "$GRADE_BASE"
  cp -a "$1" "$GRADE_BASE/tree" && cp -a "$2" "$GRADE_BASE/build"
  GRADE_BASE_SUM=$(grade_base_sum)
}
# The base itself is checked before each use: a run outside the sandbox could have found it.
grade_base_sum() { (cd "$GRADE_BASE" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum); }
grade_restore() { # TREE BUILD: the base again, as it was (times kept, so nothing is rebuilt)
  [ "$(grade_base_sum)" = "$GRADE_BASE_SUM" ] ||
    fatal "grade: the base copy of the course files changed (by ${GRADE_LAST:-?}?): stopping"
  chmod -R u+w "$1" "$2" 2>/dev/null
  rm -rf "$1" "$2"
  cp -a "$GRADE_BASE/tree" "$1" && cp -a "$GRADE_BASE/build" "$2"
}
GRADE_TASKS='' GRADE_NOTE=''
# Like check_lesson, but the run's verdict is the one run-lesson.sh took from the driver's record
# (WB_VERDICT_LOG), not the output; the ctest run is its own session, killed whole when it ends.
grade_check() { # NN-slug BACKEND: sets CHECK_RESULT, CHECK_LOG and GRADE_TASKS (failed tasks)
  local lesson=$1 backend=$2 test pid verdicts=$STATE/verdicts.txt
  test=$lesson.exercise.$backend
  GRADE_TASKS='' GRADE_NOTE=''
  CHECK_LOG=$STATE/logs/$lesson.build.log
  nvcc_start "$lesson"
  # The build sees only the build folder writable and the solutions hidden (in the sandbox).
  if ! ${GRADE_SANDBOX:+"$GRADE_SANDBOX" --write "$BUILD"} cmake --build "$BUILD" -j "$JOBS" --target "$test" \
    >"$CHECK_LOG" 2>&1; then
    CHECK_RESULT=nobuild
    nvcc_finish || CHECK_RESULT=nvcc
    return
  fi
  # The course files are read-only from here (root ignores this; the sandbox and the restore
  # before the next submission do not).
  chmod -R a-w "$WB_ROOT"
  CHECK_LOG=$STATE/logs/$lesson.check.log
  rm -f "$verdicts"
  WB_VERDICT_LOG=$verdicts WB_SANDBOX=$GRADE_SANDBOX \
    setsid ctest --test-dir "$BUILD" -R "^${test//./\\.}\$" --output-on-failure >"$CHECK_LOG" 2>&1 </dev/null &
  pid=$!
  wait "$pid"
  local status=$?
  kill -KILL -- "-$pid" 2>/dev/null
  if [ $status -eq 0 ] && grep -q -E '\*\*\*Skipped|\(Skipped\)' "$CHECK_LOG"; then
    CHECK_RESULT=skip
  elif [ $status -eq 0 ] && [ -s "$verdicts" ] && ! grep -q -v -E '^run [0-9]+ PASS ' "$verdicts"; then
    CHECK_RESULT=pass
  else
    CHECK_RESULT=fail
    [ $status -eq 0 ] && GRADE_NOTE="FAIL: no verdict from the checker: the lesson's checks did not run"
    GRADE_TASKS=$(sed -n 's/^run [0-9]* FAIL .*tasks=\([0-9,]*\)$/\1/p' "$verdicts" 2>/dev/null | head -n 1)
  fi
  nvcc_finish || CHECK_RESULT=nvcc
}
# Per-task verdicts, for partial credit: a pass passes every task; a failure fails the tasks its
# FAIL line names (from the driver's record) and leaves the others not judged (a driver stops at
# its first failure). One line per task in the log and in OUT/tasks.txt: STUDENT NN TASK VERDICT.
grade_tasks() { # STUDENT NN-slug RESULT FAILED-TASKS
  local count task verdict line=''
  count=$(task_count "$GRADE_SHIPPED/$2/$(basename "$(exercise_file "$2")")")
  for ((task = 1; task <= count; task++)); do
    if [ "$3" = pass ]; then verdict=pass
    elif [[ ",$4," == *",$task,"* ]]; then verdict=fail
    else verdict=not-judged
    fi
    echo "${1// /_} ${2%%-*} $task $verdict" >>"$GRADE_OUT/tasks.txt"
    line+=" $task $verdict,"
  done
  [ -z "$line" ] || echo "tasks:${line%,}"
}
task_count() { # EXERCISE-FILE: how many task regions it has
  grep -c -E '^[[:space:]]*(//|/\*) ---- task [0-9]+' "$1"
}
cmd_grade() {
  local subs='' out='' only=''
  while [ $# -gt 0 ]; do
    case $1 in
      -h | --help) help_grade; return 0 ;;
      --output) [ $# -ge 2 ] || usage_error "grade: --output needs a folder"; out=$2; shift ;;
      --lessons) [ $# -ge 2 ] || usage_error "grade: --lessons needs a list like 01,02"; only=$2; shift ;;
      -*) usage_error "grade: unknown option '$1'" ;;
      *) [ -z "$subs" ] || usage_error "grade: one submissions folder"; subs=$1 ;;
    esac
    shift
  done
  [ -n "$subs" ] || usage_error "grade: which folder holds the submissions? (try: $WB_NAME grade --help)"
  [ -d "$subs" ] || usage_error "grade: $subs is not a folder"
  subs=$(cd "$subs" && pwd)
  out=${out:-$BUILD/grade}
  mkdir -p "$out" && out=$(cd "$out" && pwd)
  GRADE_OUT=$out

  # Students, and where each one's lessons are.
  local student_dir student_root lesson number file
  local -a students=() roots=() dirs=() lessons=()
  for student_dir in "$subs"/*/; do
    student_dir=${student_dir%/}
    [ -d "$student_dir" ] || continue
    student_root=$student_dir
    [ -d "$student_dir/lessons" ] && student_root=$student_dir/lessons
    students+=("${student_dir##*/}")
    roots+=("$student_root")
    dirs+=("$student_dir")
  done
  [ ${#students[@]} -gt 0 ] || usage_error "grade: $subs has no student folders"
  for lesson in "${ALL_LESSONS[@]}"; do
    number=${lesson%%-*}
    if [ -n "$only" ]; then
      [[ ",${only// /}," == *",$number,"* || ",${only// /}," == *",$((10#$number)),"* ]] && lessons+=("$lesson")
    else
      for student_root in "${roots[@]}"; do
        [ -n "$(submitted_exercise "$student_root" "$lesson")" ] && { lessons+=("$lesson"); break; }
      done
    fi
  done
  [ ${#lessons[@]} -gt 0 ] || usage_error "grade: no lesson to grade (no exercise files found under $subs)"

  # A pristine tree (no solutions/) and its build, kept between runs so a regrade is quick.
  local tree=$out/work/tree gbuild=$out/work/build lesson_list
  lesson_list=$(lesson_numbers "${lessons[@]}")
  lesson_list=${lesson_list// /;}
  say "Grading ${#students[@]} students on lessons ${lesson_list//;/, } (work folder: $out/work)"
  [ -d "$out/work" ] && chmod -R u+w "$out/work" 2>/dev/null
  rm -rf "$tree"
  copy_tree "$WB_ROOT" "$tree" -o -path ./solutions -o -path ./.workbook
  mkdir -p "$gbuild/workbook/logs"
  if ! (cd "$tree" && cmake --preset default -B "$gbuild" "-DWB_LESSONS=$lesson_list" "-DWB_TEST_TIMEOUT=${WORKBOOK_GRADE_TIMEOUT:-60}" "${EXTRA_CMAKE_ARGS[@]}") >"$gbuild/workbook/logs/configure.log" 2>&1; then
    tail -n 25 "$gbuild/workbook/logs/configure.log"
    fatal "grade: the pristine tree does not configure (log: $gbuild/workbook/logs/configure.log)"
  fi
  # The exercises as shipped, which submissions are compared with (git, the export snapshot or the
  # workbook's first copy; else this tree's own file), taken before the helpers move to the copy.
  local shipped_dir=$out/work/shipped
  rm -rf "$shipped_dir"
  for lesson in "${lessons[@]}"; do
    file=$(shipped_exercise "$lesson")
    [ -n "$file" ] || file=$(exercise_file "$lesson")
    mkdir -p "$shipped_dir/$lesson"
    cp "$file" "$shipped_dir/$lesson/$(basename "$(exercise_file "$lesson")")"
  done
  # From here the helpers work on the pristine build and its copy of the lessons.
  BUILD=$gbuild PROGRESS=$gbuild/workbook-progress.txt STATE=$gbuild/workbook WB_ROOT=$tree
  GRADE_SHIPPED=$shipped_dir
  load_tests
  gpu_check
  local where
  where=$(backend_summary)
  say "Checks run $where"
  grade_sandbox_setup
  export WB_SANDBOX_HIDE="${WB_SELF%/*}/solutions:$subs:$out/logs"
  export WB_SANDBOX_SHOW=$out/work
  # The base: everything but the exercises built once, then copied for each submission.
  local -a base_targets=()
  for lesson in "${lessons[@]}"; do base_targets+=("$lesson.exercise.$(backend_for "$lesson")"); done
  build_targets "$gbuild/workbook/logs/base.build.log" "${base_targets[@]}" ||
    fatal "grade: the pristine tree does not build (log: $gbuild/workbook/logs/base.build.log)"
  grade_snapshot "$tree" "$gbuild"
  : >"$out/tasks.txt"

  local s backend verdict message started elapsed total=0 failures=0 suite_tests suite_failures
  local -A cell=()
  local cases_xml='' suites_xml=''
  for s in "${!students[@]}"; do
    mkdir -p "$out/logs/${students[$s]}"
    suite_tests=0 suite_failures=0 cases_xml=''
    for lesson in "${lessons[@]}"; do
      backend=$(backend_for "$lesson")
      file=$(submitted_exercise "${roots[$s]}" "$lesson")
      local log=$out/logs/${students[$s]}/$lesson.log
      started=$(date +%s.%N)
      if [ -z "$file" ]; then
        verdict=not-submitted message="not submitted"
        echo "no $(basename "$(exercise_file "$lesson")") for lesson ${lesson%%-*} in ${roots[$s]}" >"$log"
      elif ! screen_submission "${dirs[$s]}" "$file" "$lesson" >"$log" 2>&1; then
        verdict=refused message=$(sed -n '1s/^refused: //p' <(grep -m 1 '^refused: ' "$log"))
        message=${message:-see the log}
      else
        # A fresh copy of the course files; only the exercise file comes from the student (touched
        # so the build sees the change).
        grade_restore "$tree" "$gbuild"
        GRADE_LAST="${students[$s]}, lesson ${lesson%%-*}"
        cp "$file" "$(exercise_file "$lesson")" && touch "$(exercise_file "$lesson")"
        grade_check "$lesson" "$backend"
        cat "$CHECK_LOG" >>"$log"
        grade_tasks "${students[$s]}" "$lesson" "$CHECK_RESULT" "$GRADE_TASKS" >>"$log"
        case $CHECK_RESULT in
          pass) verdict=pass message="" ;;
          nobuild) verdict=compile-error message="does not compile: $(grep -m 1 -E 'error' "$log" || echo 'see the log')" ;;
          skip) verdict=not-run message="could not run: no usable GPU and no simulator in this build" ;;
          *) verdict=wrong-result message=${GRADE_NOTE:-$(program_output "$lesson.exercise.$backend" "$CHECK_LOG" | grep -E '^(FAIL|TIMEOUT|CRASH)' | tail -n 1)}
             message=${message:-wrong result} ;;
        esac
      fi
      elapsed=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
      cell[$s,$lesson]=$verdict
      suite_tests=$((suite_tests + 1))
      cases_xml+="    <testcase classname=\"$(xml_escape <<<"${students[$s]}")\" name=\"$lesson\" time=\"$elapsed\">"$'\n'
      if [ $verdict != pass ]; then
        suite_failures=$((suite_failures + 1))
        cases_xml+="      <failure type=\"$verdict\" message=\"$(xml_escape <<<"$message")\">$(xml_escape <"$log")</failure>"$'\n'
      fi
      cases_xml+="    </testcase>"$'\n'
      printf '  %-20s %s %s\n' "${students[$s]}" "${lesson%%-*}" "$verdict${message:+: $message}"
    done
    total=$((total + suite_tests))
    failures=$((failures + suite_failures))
    suites_xml+="  <testsuite name=\"$(xml_escape <<<"${students[$s]}")\" tests=\"$suite_tests\" failures=\"$suite_failures\" errors=\"0\" skipped=\"0\" timestamp=\"$(date -u +%Y-%m-%dT%H:%M:%S)\" hostname=\"$(uname -n | xml_escape)\">"$'\n'
    suites_xml+="    <properties><property name=\"backend\" value=\"$(xml_escape <<<"$where")\"/></properties>"$'\n'
    suites_xml+=$cases_xml
    suites_xml+="  </testsuite>"$'\n'
  done
  {
    echo '<?xml version="1.0" encoding="UTF-8"?>'
    echo "<testsuites name=\"workbook grade\" tests=\"$total\" failures=\"$failures\">"
    printf '%s' "$suites_xml"
    echo "</testsuites>"
  } >"$out/junit.xml"

  # The summary table: one row per student, one column per lesson.
  {
    echo "# workbook grade: $(date '+%Y-%m-%d %H:%M')"
    echo "# checks ran $where"
    echo "# PASS correct, FAIL wrong, does not compile or refused (see the log), -- not submitted"
    printf '%-20s' student
    for lesson in "${lessons[@]}"; do printf ' %-4s' "${lesson%%-*}"; done
    printf ' %s\n' passed
    for s in "${!students[@]}"; do
      local passed=0
      printf '%-20s' "${students[$s]}"
      for lesson in "${lessons[@]}"; do
        case ${cell[$s,$lesson]} in pass) printf ' %-4s' PASS; passed=$((passed + 1)) ;; not-submitted) printf ' %-4s' -- ;; *) printf ' %-4s' FAIL ;; esac
      done
      printf ' %s\n' "$passed/${#lessons[@]}"
    done
  } >"$out/summary.txt"
  say ""
  cat "$out/summary.txt"
  say ""
  good "JUnit XML: $out/junit.xml   summary: $out/summary.txt   logs: $out/logs/"
}

