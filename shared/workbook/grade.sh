# shellcheck shell=bash
# grade.sh: `workbook grade`, the instructor's grader (sourced by workbook, not run).
# Uses the workbook's helpers (backend_for, gpu_probe, ...), its settings, and copy_tree and
# parse_lessons from export.sh.

# --- grade SUBMISSIONS ---------------------------------------------------------------------------
help_grade() {
  help_text <<EOF
Usage: $WB_NAME grade SUBMISSIONS_DIR [--lessons LIST] [--output DIR]
         [--timeout S] [--grading FILE] [--seed S] [--jobs N] [--shard I/N]
         [--no-sandbox] [--output-limit BYTES] [--build-timeout S]
         [--build-memory MIB] [--run-memory MIB] [--run-procs N]
       $WB_NAME grade --merge DIR... --output DIR

SUBMISSIONS_DIR is a folder with one entry per student: a copy of lessons/, a
whole tree or a git clone, a folder with the exercise file at its top (with
--lessons naming one lesson), or one file per student as an LMS download
names it ("Alice Smith_1234_exercise.cu": the name is the part before "_").
Only the exercise files are graded, each in a fresh copy of this tree (no
solutions/), in bubblewrap, and only the driver's verdict
record counts. LIST: lessons and ranges, e.g. 03-05,07 (default: every
lesson someone submitted).

Verdicts: pass, wrong-result, compile-error (nvcc is asked too, where it is
installed), crash, timeout, not-submitted, refused, could-not-run. Points per
task (default 1 each) and hidden inputs come from lessons/NN-slug/grading.txt
or --grading FILE; each run adds an input with a seed of its own (--seed).
--timeout S: the time limit of each run (default 60). --output-limit BYTES:
the output kept of each run (default 65536; the log says where it was cut).
--build-timeout S: the time limit of each build and of nvcc (default 300).
--build-memory MIB, --run-memory MIB: the memory of a build or a run
(default 4096; 0: none). --run-procs N: the processes and threads of one run
(default 256; 0: none). Past a limit the verdict is the student's (timeout,
compile-error, crash, wrong-result).
Without bubblewrap grade refuses to run; --no-sandbox runs the submissions
as you instead (they could read or change your files).
Writes DIR/grades.csv, DIR/junit.xml, DIR/summary.txt, DIR/tasks.txt,
DIR/STUDENT/results.json (Gradescope) and DIR/logs/STUDENT/ (default DIR:
grade/ in the build folder). --jobs N grades N students at a time; --shard
I/N grades every Nth student from the I-th; --merge joins shards' folders.
Exit status 3 when a check could not run (the grader's fault, no zero); 4
when a submission was skipped (its name, in DIR/skipped.txt).
See docs/instructor-guide.md.
EOF
}
# --- Text a gradebook can hold, whatever the bytes ------------------------------------------------
# Every byte that reaches a gradebook, a log or the console from a student (output, build log,
# folder name) goes through clean_text: terminal escapes (CSI, OSC, two-byte ESC) removed, every
# byte that is not part of valid UTF-8 replaced by U+FFFD, and what XML 1.0 forbids or a terminal
# obeys dropped (C0 controls but tab, DEL, C1 controls, U+FFFE, U+FFFF; CR too). Lines stay lines.
clean_text() { # stdin -> stdout
  tr -d '\000' |
    LC_ALL=C sed -E -e $'s/\x1b\\[[0-?]*[ -\\/]*[@-~]//g' -e $'s/\x1b\\][^\x07\x1b]*(\x07|\x1b\\\\)?//g' \
      -e $'s/\x1b[@-Z\\\\-_]//g' |
    LC_ALL=C awk '
      BEGIN { for (i = 1; i < 256; i++) ord[sprintf("%c", i)] = i; bad = "\357\277\275" }
      /^[\t -~]*$/ { print; next }
      {
        n = length($0); i = 1
        while (i <= n) {
          ch = substr($0, i, 1); c = ord[ch]
          if (c < 128) { if (c == 9 || (c >= 32 && c != 127)) printf "%s", ch; i++; continue }
          len = (c >= 194 && c <= 223) ? 2 : (c >= 224 && c <= 239) ? 3 : (c >= 240 && c <= 244) ? 4 : 0
          ok = len > 0 && i + len - 1 <= n
          for (k = 1; ok && k < len; k++) { d = ord[substr($0, i + k, 1)]; if (d < 128 || d > 191) ok = 0 }
          if (ok) {
            d = ord[substr($0, i + 1, 1)]
            if ((c == 224 && d < 160) || (c == 237 && d > 159) || (c == 240 && d < 144) || (c == 244 && d > 143)) ok = 0
          }
          if (!ok) { printf "%s", bad; i++; continue }
          s = substr($0, i, len); i += len
          if ((c == 194 && d < 160) || s == "\357\277\276" || s == "\357\277\277") continue
          printf "%s", s
        }
        printf "\n"
      }'
}
# Fast paths (the gradebooks escape thousands of short texts): text of printable ASCII, tabs and
# newlines is what clean_text passes unchanged, so the shell escapes it itself, with the same
# result as the filters; anything else goes through them.
GRADE_NOT_PLAIN=$'[^\t\n -~]'
text_is_plain() { local LC_ALL=C; ! [[ $1 =~ $GRADE_NOT_PLAIN ]]; } # TEXT
clean_line() { # TEXT -> one clean line
  if text_is_plain "$1"; then
    local text=${1//[$'\t\n']/ }
    while [[ $text == *' ' ]]; do text=${text%' '}; done
    printf '%s' "$text"
    return
  fi
  printf '%s' "$1" | clean_text | tr '\t\n' '  ' | sed 's/ *$//'
}
xml_escape() { # stdin -> stdout, safe inside XML text and attributes
  clean_text | sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g' -e "s/'/\&apos;/g"
}
json_string() { # stdin -> one JSON string (quotes included)
  clean_text | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' |
    awk 'BEGIN { printf "\"" } { printf "%s%s", (NR > 1 ? "\\n" : ""), $0 } END { printf "\"" }'
}
json_of() { # TEXT -> the JSON string that `printf '%s' TEXT | json_string` prints
  if ! text_is_plain "$1"; then printf '%s' "$1" | json_string; return; fi
  local text=${1%$'\n'}
  text=${text//\\/\\\\}
  text=${text//\"/\\\"}
  text=${text//$'\t'/\\t}
  text=${text//$'\n'/\\n}
  printf '"%s"' "$text"
}
xml_of() { # TEXT -> what `xml_escape <<<TEXT` prints, but for the newlines that end it
  if ! text_is_plain "$1"; then xml_escape <<<"$1"; return; fi
  local text=$1
  text=${text//&/'&amp;'}
  text=${text//</'&lt;'}
  text=${text//>/'&gt;'}
  text=${text//\"/'&quot;'}
  text=${text//\'/'&apos;'}
  printf '%s' "$text"
}
# TEXT as one CSV cell: clean, quoted as RFC 4180 asks, and never a formula: a cell that starts
# with = + - @ (or tab, CR) gets a leading ' and quotes, as OWASP's CSV-injection rule says.
csv_field() { # TEXT
  local text
  text=$(clean_line "$1")
  if [[ $text == [=+@-]* || $1 == [$'\t'$'\r']* ]]; then text="'$text"; printf '"%s"' "${text//\"/\"\"}"; return; fi
  if [[ $text == *[\",]* ]]; then printf '"%s"' "${text//\"/\"\"}"; else printf '%s' "$text"; fi
}
# Write FILE from stdin through a temporary file beside it and a rename: a reader never sees half.
write_atomic() { # FILE
  local tmp
  tmp=$(mktemp "${1%/*}/.${1##*/}.XXXXXX") || return 1
  cat >"$tmp" && chmod 644 "$tmp" && mv -f "$tmp" "$1"
}
# Pad TEXT to WIDTH characters (not bytes: "Zoë Müller" is 10 wide), in a UTF-8 locale.
pad() { # WIDTH TEXT
  local LC_ALL=C.UTF-8 text=$2 width=$1
  printf '%s%*s' "$text" $((width > ${#text} ? width - ${#text} : 0)) ''
}
# The exercise file a student submitted for a lesson, or nothing. ROOT is where the student's
# lessons are (their lessons/ folder, or their folder itself); a folder holding the exercise at
# its top counts for the one lesson graded (FLAT=yes).
submitted_exercise() { # STUDENT-LESSONS-DIR NN-slug [FLAT]
  local root=$1 lesson=$2 name candidate
  name=$(exercise_file "$lesson")
  name=${name##*/}
  for candidate in "$root/$lesson/$name" "$root/${lesson%%-*}"-*/"$name"; do
    # A link is returned too: screen_submission refuses it by name.
    [ -f "$candidate" ] || [ -L "$candidate" ] && { echo "$candidate"; return; }
  done
  if [ "${3:-no}" = yes ] && { [ -f "$root/$name" ] || [ -L "$root/$name" ]; }; then echo "$root/$name"; fi
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
grade_sandbox_setup() { # sets GRADE_SANDBOX; without one, only by choice (--no-sandbox)
  local sandbox=${WB_SELF%/*}/shared/workbook/sandbox.sh why
  GRADE_SANDBOX=''
  if [ "${WORKBOOK_GRADE_SANDBOX:-on}" = off ]; then
    why="WORKBOOK_GRADE_SANDBOX=off"
  elif [ "$GRADE_NO_SANDBOX" = yes ]; then
    why="--no-sandbox"
  elif why=$("$sandbox" --probe 2>&1); then
    GRADE_SANDBOX=$sandbox
    return
  else
    [ ${#why} -le 60 ] || why="${why:0:57}..."
    usage_error "grade: no sandbox ($why): install bubblewrap, or grade with --no-sandbox (every submission then runs as you, and can read or change your files)"
  fi
  warn "warning: no sandbox ($why): submissions run as you,"
  warn "  and can read or change your files (see docs/instructor-guide.md)"
}
# The graded tree is the course and only the course: the files git tracks where ROOT is a git work
# tree's top (so never a submission, a gradebook, a grading file or a build, even inside the
# checkout), else the files there; of these only the build files and the harness (workbook,
# CMakeLists.txt, CMakePresets.json, shared/) and the graded lessons (not their grading.txt, no
# .bak, no link). Never solutions/, tests/, docs/, .git, other lessons. So a regrade never nests.
grade_tree() { # ROOT DST LESSON...
  local root=$1 dst=$2 path lesson
  shift 2
  local -a files=() keep=()
  if [ -z "$(git -C "$root" rev-parse --show-prefix 2>/dev/null)" ] && git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
    mapfile -d '' -t files < <(git -C "$root" ls-files -z)
  else
    build_folder_prunes "$root"
    mapfile -d '' -t files < <(cd "$root" && find . -mindepth 1 \( -name .git -o -path './build*' \
      "${WB_BUILD_PRUNES[@]}" \) -prune -o ! -type d -printf '%P\0')
  fi
  for path in "${files[@]}"; do
    [ -f "$root/$path" ] && [ ! -L "$root/$path" ] || continue
    case $path in
      *.bak | lessons/*/grading.txt) ;;
      workbook | CMakeLists.txt | CMakePresets.json | shared/*) keep+=("$path") ;;
      lessons/*/*)
        lesson=${path#lessons/}
        lesson=${lesson%%/*}
        [[ " $* " != *" $lesson "* ]] || keep+=("$path") ;;
    esac
  done
  mkdir -p "$dst"
  [ ${#keep[@]} -eq 0 ] || (cd "$root" && printf '%s\0' "${keep[@]}" | xargs -0 -r cp -a --parents -t "$dst")
}
# The limits of a build (or nvcc's check), in front of the sandbox: time, memory per process.
# WB_SANDBOX_STARTED (a file of the grader's, outside the sandbox) gets "started" from inside it.
# WORKBOOK_GRADE_CCACHE_DIR (the grading tests only: never for a real class) lets the builds in the
# sandbox use ccache with that folder, a cache of the test run's own (sandbox.sh).
grade_build_prefix() { # STARTED-FILE -> GRADE_PREFIX
  GRADE_PREFIX=(env "WB_SANDBOX_STARTED=$1" "WB_SANDBOX_CCACHE=${WORKBOOK_GRADE_CCACHE_DIR:-}"
    timeout --kill-after=5 "$GRADE_BUILD_TIMEOUT"
    "${WB_SELF%/*}/shared/workbook/limits.sh" --memory "$GRADE_BUILD_MEMORY" --)
  [ -z "$GRADE_SANDBOX" ] || GRADE_PREFIX+=("$GRADE_SANDBOX" --write "$BUILD")
}
grade_snapshot() { # TREE BUILD: keep both as the base every submission starts from
  GRADE_BASE=${2%/*}/base
  rm -rf "$GRADE_BASE"
  mkdir -p "$GRADE_BASE"
  cp -a "$1" "$GRADE_BASE/tree" && cp -a "$2" "$GRADE_BASE/build"
  GRADE_BASE_SUM=$(grade_base_sum)
}
# Without the sandbox the base itself is checked before each use: a run outside it could have
# found it. In the sandbox no build or run can reach it (it lies outside what sandbox.sh shows,
# and WB_SANDBOX_HIDE names it too), so hashing it for every attempt would be work for nothing.
grade_base_sum() { (cd "$GRADE_BASE" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum); }
grade_restore() { # TREE BUILD: the base again, as it was (times kept, so nothing is rebuilt)
  [ -n "$GRADE_SANDBOX" ] || [ "$(grade_base_sum)" = "$GRADE_BASE_SUM" ] ||
    fatal "grade: the base copy of the course files changed (by ${GRADE_LAST:-?}?): stopping"
  chmod -R u+w "$1" "$2" 2>/dev/null
  rm -rf "$1" "$2"
  cp -a "$GRADE_BASE/tree" "$1" && cp -a "$GRADE_BASE/build" "$2"
}

# --- The grading file: points per task, hidden inputs ---------------------------------------------
# lessons/NN-slug/grading.txt (never exported) or --grading FILE. Lines, '#' starts a comment:
#     points TASK POINTS      task TASK is worth POINTS (default: 1 each)
#     input FLAGS...          a hidden input: one more run of the lesson program, after the shipped
# In a --grading FILE each line starts with the lesson's number: "03 points 1 2", "03 input --n 7".
declare -A GRADE_POINTS=() GRADE_INPUTS=()
grading_line() { # WHERE NN-slug LINE...
  local where=$1 lesson=$2 kind=$3
  shift 3
  case $kind in
    points)
      [[ $# -eq 2 && $1 =~ ^[0-9]+$ && $2 =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
        usage_error "grade: $where: 'points' needs a task and a number, e.g. 'points 2 3'"
      GRADE_POINTS[$lesson,$((10#$1))]=$2 ;;
    input)
      [ $# -gt 0 ] || usage_error "grade: $where: 'input' needs the program's flags, e.g. 'input --n 4097'"
      [[ " $* " =~ ^(\ --?[a-z][a-z-]*(\ [0-9][0-9.]*[kKmMgG]?)?)+\ $ ]] ||
        usage_error "grade: $where: an input is flags and numbers only, e.g. 'input --n 4097 --seed 9'"
      GRADE_INPUTS[$lesson]+="$*"$'\n' ;;
    *) usage_error "grade: $where: unknown line '$kind' (points or input)" ;;
  esac
}
load_grading() { # LESSON-FILE-ROOT GRADING-FILE LESSON...: fill GRADE_POINTS and GRADE_INPUTS
  local root=$1 extra=$2 lesson number line=0 words
  shift 2
  for lesson in "$@"; do
    [ -f "$root/lessons/$lesson/grading.txt" ] || continue
    line=0
    while IFS= read -r words || [ -n "$words" ]; do
      line=$((line + 1))
      words=${words%%#*}
      read -r -a words <<<"$words"
      [ ${#words[@]} -gt 0 ] || continue
      grading_line "lessons/$lesson/grading.txt:$line" "$lesson" "${words[@]}"
    done <"$root/lessons/$lesson/grading.txt"
  done
  [ -n "$extra" ] || return 0
  line=0
  while IFS= read -r words || [ -n "$words" ]; do
    line=$((line + 1))
    words=${words%%#*}
    read -r -a words <<<"$words"
    [ ${#words[@]} -gt 0 ] || continue
    [[ ${words[0]} =~ ^[0-9]{1,2}$ ]] || usage_error "grade: $extra:$line: a line starts with a lesson number"
    number=$(printf '%02d' $((10#${words[0]})))
    lesson=''
    for lesson in "$@" ''; do [ "${lesson%%-*}" = "$number" ] && break; done
    [ -n "$lesson" ] || continue # a lesson not graded this time
    grading_line "$extra:$line" "$lesson" "${words[@]:1}"
  done <"$extra"
}

# --- Tasks: their titles and regions ---------------------------------------------------------------
# shellcheck source=../cmake/skeleton-guard.sh
source "${BASH_SOURCE[0]%/*}/../cmake/skeleton-guard.sh"
task_titles() { # EXERCISE-FILE -> "N<TAB>title" per task (the shipped marker lines: WB_TASK_START_RE)
  awk -v start_re="$WB_TASK_START_RE" '$0 ~ start_re' "$1" | sed -n -E 's@^[[:space:]]*(//|/\*) ---- task ([0-9]+):? *(.*)$@\2\t\3@p' |
    sed -E 's/[[:space:]]*-*[[:space:]]*(\*\/)?[[:space:]]*$//'
}
# The regions of a submission, found by the one reader (regions_read, shared/cmake/skeleton-guard.sh:
# the shipped exercise's marker lines, byte for byte), the one the submission rules use too.
task_region() { # SHIPPED FILE TASK: the lines of that task's region in FILE (markers excluded)
  regions_read "$1" "$2" body "$3"
}
splice_task() { # SHIPPED BASE DONOR TASK: BASE (the reference) with task TASK's region from DONOR
  WB_REGIONS_BASE=$2 regions_read "$1" "$3" splice "$4"
}
# What the compiler gets from a submission: the shipped exercise with the submission's region
# bodies put in, so nothing outside the regions survives (the rules found its markers exact). With
# WORKBOOK_GRADE_RULES=off (testing the sandbox alone) the file as submitted.
rebuilt_submission() { # SHIPPED FILE
  if [ "${WORKBOOK_GRADE_RULES:-on}" = off ]; then cat "$2"; else regions_read "$1" "$2" rebuild; fi
}

# --- One attempt: build the exercise now in the tree, run every input, say what happened ---------
# The inputs: the lesson's own test sizes (from its CTest command), the hidden ones, and one with
# this grade run's seed. The log names each ("==> program FLAGS", from run-lesson.sh).
declare -A GRADE_SHIPPED_ARGS=()
shipped_argsets() { # NN-slug BACKEND -> the lesson test's argument sets, one per line
  local file=$BUILD/lessons/$1/CTestTestfile.cmake
  grep -F "add_test([=[$1.exercise.$2]=]" "$file" 2>/dev/null | head -n 1 | grep -o '"[^"]*"' |
    sed -e 's/^"//' -e 's/"$//' | tail -n +6
}
grade_inputs() { # NN-slug BACKEND -> every argument set of this grade, one per line
  local lesson=$1 seeded
  printf '%s\n' "${GRADE_SHIPPED_ARGS[$lesson]}"
  printf '%s' "${GRADE_INPUTS[$lesson]:-}"
  seeded=$(grep -x -e '--n 1000' <<<"${GRADE_SHIPPED_ARGS[$lesson]}" | head -n 1)
  [ -n "$seeded" ] || seeded=$(grep -v -e '--seed' <<<"${GRADE_SHIPPED_ARGS[$lesson]}" | tail -n 1)
  echo "$seeded --seed $GRADE_SEED"
}
describe_inputs() { # NN-slug: one line for the log
  local hidden
  hidden=$(printf '%s' "${GRADE_INPUTS[$1]:-}" | paste -sd ';' | sed 's/;/; /g')
  echo "inputs: shipped: $(paste -sd ';' <<<"${GRADE_SHIPPED_ARGS[$1]}" | sed 's/;/; /g')"
  echo "inputs: hidden: ${hidden:-none}"
  echo "inputs: this grade's seed: $GRADE_SEED"
}
# Sets ATTEMPT (pass, wrong-result, compile-error, crash, timeout, could-not-run), ATTEMPT_MESSAGE
# and ATTEMPT_TASKS (the tasks the driver's record says fail), and appends to LOG.
ATTEMPT='' ATTEMPT_MESSAGE='' ATTEMPT_TASKS=''
# could-not-run comes only from the grader's own evidence: a sandbox that did not start (its
# "started" file stays empty: sandbox.sh), the grader's own GPU probe, never from a line the
# student's program or build printed. Past a limit (build time or memory, run time, memory,
# processes) the verdict is the student's.
grade_attempt() { # NN-slug BACKEND LOG
  local lesson=$1 backend=$2 log=$3 test build_log=$STATE/logs/$1.build.log verdicts=$STATE/verdicts.txt
  local pid status count line nvcc=ok nvcc_status
  local build_started=$GRADE_WORK/build.started nvcc_started=$GRADE_WORK/nvcc.started
  test=$lesson.exercise.$backend
  ATTEMPT='' ATTEMPT_MESSAGE='' ATTEMPT_TASKS=''
  : >"$build_started"
  : >"$nvcc_started"
  # nvcc runs in the sandbox too, with the build's limits (nvcc_start puts NVCC_PREFIX in front).
  grade_build_prefix "$nvcc_started"
  NVCC_PREFIX=("${GRADE_PREFIX[@]}")
  nvcc_start "$lesson"
  NVCC_PREFIX=()
  # The build sees only the build folder writable (in the sandbox), within its time and memory.
  grade_build_prefix "$build_started"
  "${GRADE_PREFIX[@]}" cmake --build "$BUILD" -j "$JOBS" --target "$test" >"$build_log" 2>&1
  status=$?
  if [ $status -ne 0 ]; then
    nvcc_finish
    nvcc_status=$?
    [ $nvcc_status -eq 0 ] || nvcc=rejected
    grep -v -E '^\[ *[0-9]+/[0-9]+\]|^ninja: |^FAILED: ' "$build_log" | head -n 40 | head -c "$GRADE_OUTPUT_LIMIT" |
      clean_text >>"$log"
    if [ -n "$GRADE_SANDBOX" ] && [ ! -s "$build_started" ]; then # the grader's evidence, not the log
      ATTEMPT=could-not-run ATTEMPT_MESSAGE="could not run: the sandbox did not start for the build (exit $status)"
      return
    fi
    if [ $status -eq 124 ] || [ $status -eq 137 ]; then
      ATTEMPT=timeout ATTEMPT_MESSAGE="timeout: the build did not finish in $GRADE_BUILD_TIMEOUT s (--build-timeout)"
      return
    fi
    if [ $nvcc = rejected ]; then grade_nvcc_verdict "$log" $nvcc_status "$nvcc_started"; return; fi
    ATTEMPT=compile-error
    line=$(grep -m 1 -E '(error|Error)[: ]|out of memory|memory exhausted' "$build_log" | head -c 300 | sed -E 's@^[^ :]*/([^/ :]+):@\1:@')
    ATTEMPT_MESSAGE="does not compile: $(clean_line "${line:-see the log}")"
    return
  fi
  # Per-task judging: the spliced program holds the reference's other tasks. Built, its sources
  # go where the run cannot read them (grade_mask_reference).
  [ -z "${GRADE_SPLICED_TASK:-}" ] || grade_mask_reference "$lesson" "$GRADE_SPLICED_TASK"
  # The course files are read-only from here (root ignores this; the sandbox and the restore
  # before the next submission do not).
  chmod -R a-w "$WB_ROOT"
  mapfile -t GRADE_RUN_INPUTS < <(grade_inputs "$lesson" "$backend")
  describe_inputs "$lesson" >>"$log"
  rm -f "$verdicts"
  # WB_GRADE_TAG marks every process of the runs (grade_sweep finds them by it, even one that left
  # the session); WB_OUTPUT_LIMIT caps what is kept of each run's output (run-lesson.sh); WB_LIMITS
  # the memory and processes of each run. The grade's own files in the build (STATE) are hidden.
  WB_GRADE_TAG=$GRADE_TAG WB_OUTPUT_LIMIT=$GRADE_OUTPUT_LIMIT WB_VERDICT_LOG=$verdicts WB_SANDBOX=$GRADE_SANDBOX \
    WB_LIMITS=${WB_SELF%/*}/shared/workbook/limits.sh WB_LIMIT_MEMORY=$GRADE_RUN_MEMORY WB_LIMIT_PROCS=$GRADE_RUN_PROCS \
    WB_SANDBOX_HIDE="$WB_SANDBOX_HIDE:$STATE" \
    setsid bash "$WB_ROOT/shared/cmake/run-lesson.sh" check \
    "$GRADE_TIMEOUT" "$BUILD/bin/$test" "${GRADE_RUN_INPUTS[@]}" >"$STATE/run.log" 2>&1 </dev/null &
  pid=$!
  wait "$pid"
  status=$?
  kill -KILL -- "-$pid" 2>/dev/null
  grade_sweep
  # What a run printed is the student's: kept (capped by run-lesson.sh, and again here), cleaned,
  # never read for the verdict or its message, which come from the per-run verdict lines.
  head -c $((GRADE_OUTPUT_LIMIT * (${#GRADE_RUN_INPUTS[@]} + 1) + 4096)) "$STATE/run.log" | clean_text >>"$log"
  nvcc_finish
  nvcc_status=$?
  if [ $nvcc_status -ne 0 ]; then grade_nvcc_verdict "$log" $nvcc_status "$nvcc_started"; return; fi
  if line=$(grep -m 1 -E '^sandbox [0-9]+ failed' "$verdicts" 2>/dev/null); then
    ATTEMPT=could-not-run ATTEMPT_MESSAGE="could not run: the sandbox did not start (${line#sandbox })"
    return
  fi
  count=$(grep -c -E '^run [0-9]+ ' "$verdicts" 2>/dev/null)
  ATTEMPT_TASKS=$(sed -n 's/^run [0-9]* FAIL .*tasks=\([0-9,]*\)$/\1/p' "$verdicts" 2>/dev/null | head -n 1)
  case $status in
    0)
      if [ "${count:-0}" -eq ${#GRADE_RUN_INPUTS[@]} ] && ! grep -q -v -E '^run [0-9]+ PASS ' "$verdicts"; then
        ATTEMPT=pass
      else
        ATTEMPT=wrong-result ATTEMPT_MESSAGE="FAIL: the checker's verdicts are incomplete (${count:-0} for ${#GRADE_RUN_INPUTS[@]} inputs)"
      fi ;;
    77)
      # "No CUDA device": the grader's own probe (the shipped program, outside the student's
      # reach) says whether the GPU went away; if it did not, the student's program said so.
      if [ "$backend" = cuda ] && ! grade_gpu_still_there "$lesson"; then
        ATTEMPT=could-not-run ATTEMPT_MESSAGE="could not run: no CUDA device (the grader's probe: $GRADE_GPU_GONE)"
      else
        ATTEMPT=wrong-result ATTEMPT_MESSAGE=$(grade_record_message "$status")
      fi ;;
    124) ATTEMPT=timeout ATTEMPT_MESSAGE="timeout: $(grade_failed_input) did not finish in $GRADE_TIMEOUT s" ;;
    *)
      # (a hidden input the program refuses was found before any student: grade_check_inputs)
      line=$(grep -m 1 -E '^cusim: error: .*(segmentation fault|bus error|out-of-bounds|overflowed|illegal address)' "$STATE/run.log" | head -c 400)
      if [ "$status" -ne 2 ] && [ -n "$line" ]; then
        ATTEMPT=crash ATTEMPT_MESSAGE=$(grade_crash_message "$(clean_line "$line")")
      elif [ "$status" -gt 128 ]; then
        ATTEMPT=crash
        ATTEMPT_MESSAGE="crash: killed by signal $((status - 128)) (SIG$(kill -l $((status - 128)) 2>/dev/null || echo '?')) on $(grade_failed_input)"
      else
        ATTEMPT=wrong-result ATTEMPT_MESSAGE=$(grade_record_message "$status")
      fi ;;
  esac
}
# nvcc's check failed: timed out (the student's: timeout), its sandbox did not start (the
# grader's), or nvcc rejects the file (compile-error).
grade_nvcc_verdict() { # LOG STATUS STARTED-FILE
  if [ -n "$GRADE_SANDBOX" ] && [ ! -s "$3" ]; then
    ATTEMPT=could-not-run ATTEMPT_MESSAGE="could not run: the sandbox did not start for nvcc (exit $2)" ATTEMPT_TASKS=''
  elif [ "$2" -eq 124 ] || [ "$2" -eq 137 ]; then
    ATTEMPT=timeout ATTEMPT_MESSAGE="timeout: nvcc did not finish in $GRADE_BUILD_TIMEOUT s (--build-timeout)" ATTEMPT_TASKS=''
  else
    grade_nvcc_rejects "$1"
  fi
}
# The grader's GPU probe, again: the shipped exercise of the base build, outside the student's
# reach, with the smallest input. False (and GRADE_GPU_GONE says why) when it finds no device.
GRADE_GPU_GONE=''
grade_gpu_still_there() { # NN-slug
  local output status
  output=$(timeout 60 "$GRADE_BASE/build/bin/$1.exercise.cuda" --n 1 --repeat 1 2>&1)
  status=$?
  [ $status -eq 77 ] || return 0
  GRADE_GPU_GONE=$(clean_line "$(sed -n 's/^no CUDA device: *//p' <<<"$output" | head -n 1 | head -c 200)")
  GRADE_GPU_GONE=${GRADE_GPU_GONE:-no usable GPU}
  return 1
}
# Before any student: every hidden input must be one the lesson's program takes. The shipped
# exercise (course code) is run once with each; exit 2 (a usage error) stops the grade, naming it.
grade_check_inputs() { # NN-slug BACKEND
  local input output status
  while IFS= read -r input; do
    [ -n "$input" ] || continue
    # shellcheck disable=SC2086 # an input is a string of flags, split on purpose
    output=$(timeout "$GRADE_TIMEOUT" "$BUILD/bin/$1.exercise.$2" $input --repeat 1 2>&1 </dev/null)
    status=$?
    [ $status -ne 2 ] ||
      usage_error "grade: lesson ${1%%-*}'s hidden input '$input' is refused by its program: $(clean_line "$(head -n 1 <<<"$output" | head -c 200)")"
  done <<<"${GRADE_INPUTS[$1]:-}"
}
# The grader's own probe of the sandbox's build tools: the base build again, inside the sandbox
# with the build's limits (nothing to do: it runs cmake and ninja), and the compilers. Where the
# sandbox starts but a tool does not run in it, every student would get compile-error: stop.
# (Where the sandbox does not start, each attempt says could-not-run.)
grade_sandbox_tools() { # TARGET...
  local started=$GRADE_WORK/probe.started tool why
  [ -n "$GRADE_SANDBOX" ] || return 0
  : >"$started"
  grade_build_prefix "$started"
  why=$("${GRADE_PREFIX[@]}" cmake --build "$BUILD" --target "$@" 2>&1) || {
    [ -s "$started" ] || return 0
    fatal "grade: the build does not run in the sandbox: $(clean_line "$(tail -n 3 <<<"$why" | head -c 300)")"
  }
  for tool in "$(cache_get CMAKE_CXX_COMPILER)" "$(cache_get CMAKE_C_COMPILER)" "$(cache_get CMAKE_CUDA_COMPILER)"; do
    [ -n "$tool" ] && [ -x "$tool" ] || continue
    "${GRADE_PREFIX[@]}" "$tool" --version >/dev/null 2>&1 ||
      fatal "grade: $tool does not run in the sandbox (see shared/workbook/sandbox.sh: what it shows)"
  done
}
# After a spliced build (a student's task in the reference): the exercise file becomes the splice
# with the reference's other regions blanked (its lines kept, so the simulator still names each
# line's task), and the build's rewritten and preprocessed copies of it are cut to their first
# lines (which name the source). The compiled program keeps the reference's code; no readable
# file of it remains where the run can look, and the run's output reaches no student's gradebook.
grade_mask_reference() { # NN-slug TASK
  local file copy masked
  file=$(exercise_file "$1")
  masked=$(awk -v t="$2" -v start="$WB_TASK_START_RE" -v end="$WB_TASK_END_RE" '
    $0 ~ end { on = 0; print; next }
    $0 ~ start { match($0, /task [0-9]+/); on = (substr($0, RSTART + 5, RLENGTH - 5) != t); print; next }
    { print (on ? "" : $0) }' "$file")
  printf '%s\n' "$masked" >"$file"
  while IFS= read -r -d '' copy; do
    case $copy in
      *.cpp) masked=$(head -n 4 "$copy"); printf '%s\n' "$masked" >"$copy" ;;
      *) : >"$copy" ;;
    esac
  done < <(find "$BUILD/lessons/$1" -path '*.cusim/*' -type f -print0 2>/dev/null)
}
# The run that ended the check: the last line of the per-run verdicts ("run K VERDICT exit=S
# tasks=N,M"), written by run-lesson.sh from the driver's token-checked record and the exit status.
grade_last_run() { sed -n 's/^run \([0-9]*\) \([A-Z]*\) exit=\([0-9]*\) tasks=\(.*\)$/\1 \2 \3 \4/p' "$STATE/verdicts.txt" 2>/dev/null | tail -n 1; }
grade_failed_input() { # the flags of the run that ended the check, as grade gave them
  local run flags=''
  read -r run _ <<<"$(grade_last_run)"
  [ -n "$run" ] && flags=${GRADE_RUN_INPUTS[$((run - 1))]:-}
  echo "'${flags:-no flags}'"
}
# A wrong result in words, from the verdict record alone (never from what the program printed,
# which the student controls): the tasks the driver's check named, and the input.
grade_record_message() { # STATUS
  local run verdict code tasks
  read -r run verdict code tasks <<<"$(grade_last_run)"
  case $verdict in
    FAIL)
      if [ "$code" = 0 ]; then
        echo "FAIL: the checker's verdict was FAIL, but the program exited 0 (its exit was changed) (on $(grade_failed_input))"
      elif [ -n "$tasks" ] && [ "$tasks" != - ]; then
        local which="task $tasks"
        [[ $tasks != *,* ]] || which="tasks ${tasks//,/, }"
        echo "FAIL: the check of $which failed (on $(grade_failed_input))"
      else
        echo "FAIL: the check failed (on $(grade_failed_input))"
      fi ;;
    NONE)
      if [ "$code" = 0 ]; then echo "FAIL: no verdict from the checker: the program ended early or exited on its own (on $(grade_failed_input))"
      else echo "FAIL: no verdict from the checker (exit status ${code:-$1}) (on $(grade_failed_input))"
      fi ;;
    *) echo "FAIL: exit status $1 (on $(grade_failed_input))" ;;
  esac
}
# Every process of this grade's runs is gone before grade goes on: found by the tag in its
# environment (WB_GRADE_TAG), or by running a program of the grading build, and killed, until none
# is left. Inside the sandbox the PID namespace does this already; outside it, this also finds a
# child that left the run's process group and session (setsid). A process that clears its own
# environment and execs a program from elsewhere escapes it: the residual risk of --no-sandbox.
grade_sweep() {
  local round pids
  for ((round = 0; round < 20; round++)); do
    pids=$({
      grep -l -s -z -x -F "WB_GRADE_TAG=$GRADE_TAG" /proc/[0-9]*/environ
      # (each process's exe link, named: no listing of every /proc/PID folder)
      [ -z "$GRADE_WORK" ] || find /proc/[0-9]*/exe -maxdepth 0 -lname "$GRADE_WORK/*" 2>/dev/null
    } | cut -d/ -f3 | grep -v -x -e "$$" -e "$BASHPID" | sort -u)
    [ -n "$pids" ] || return 0
    # shellcheck disable=SC2086 # one pid per word
    kill -KILL $pids 2>/dev/null
    sleep 0.1
  done
  warn "warning: processes of a graded run could not be killed (tag $GRADE_TAG)"
}
grade_nvcc_rejects() { # LOG: the attempt fails as nvcc says
  local line
  show_nvcc_errors 2>&1 | head -c "$GRADE_OUTPUT_LIMIT" | clean_text >>"$1"
  line=$(grep -m 1 -E ':[0-9]+: error' "$NVCC_LOG" | head -c 300 | sed -E 's@^[^ :]*/([^/ :]+):@\1:@')
  ATTEMPT=compile-error ATTEMPT_MESSAGE="does not compile (nvcc): $(clean_line "${line:-see the log}")" ATTEMPT_TASKS=''
  GRADE_NVCC_REJECTED=yes # grade_credit gives no task credit then
}
grade_crash_message() { # a cusim: error line -> "crash: WHAT (task N) in kernel 'K', block (..), thread (..)"
  local line=$1 what task kernel block thread
  what=$(sed -E -e 's/^cusim: error: //' -e 's/ (at|in kernel|by thread) .*//' -e 's/:.*//' <<<"$line")
  task=$(grep -o -E '\(task [0-9]+\)' <<<"$line" | head -n 1)
  kernel=$(grep -o -E "kernel '[^']*'" <<<"$line" | head -n 1)
  block=$(grep -o -E 'block \([0-9, ]+\)' <<<"$line" | head -n 1)
  thread=$(grep -o -E 'thread \([0-9, ]+\)' <<<"$line" | head -n 1)
  echo "crash: $what${task:+ $task}${kernel:+ in $kernel}${block:+, $block}${thread:+, $thread}"
}

# --- Credit per task --------------------------------------------------------------------------------
# A pass passes every task. A submission that fails (wrong result, crash, timeout, compile error)
# gets each task judged on its own: its region is put into the reference solution in place of the
# reference's, and that is built and run like the submission (nvcc asked too). So a task whose
# check needs another task (lesson 03's launches need task 1's kernel) is judged with the
# reference's version of the other, and no mistake costs points twice. A region left as shipped
# fails without a build, one equal to the reference's passes without one. Without solutions/
# (an instructor may delete it) the tasks the driver's record names fail and the others are
# not judged (no points). Writes "T" lines to the student's record: see grade_record.
grade_credit() { # STUDENT NN-slug FILE VERDICT BACKEND LOG RECORD
  local student=$1 lesson=$2 file=$3 verdict=$4 backend=$5 log=$6 record=$7
  local name shipped solution task title points mine task_verdict note nvcc_rejected=${GRADE_NVCC_REJECTED:-}
  # A lesson nvcc rejects (where nvcc is installed: grade_nvcc_rejects) earns no task credit: on a
  # GPU nothing of it would run, so no task is judged alone on the simulator. So does one the
  # simulator rejects for a rule of nvcc's (its rewriter says "(nvcc rejects this too)"), where
  # nvcc is not installed. (Text of the student's in that log can only cost the student.)
  [ "$verdict" = compile-error ] && grep -q -F '(nvcc rejects this too)' "$STATE/logs/$lesson.build.log" 2>/dev/null &&
    nvcc_rejected=yes
  [ "$verdict" = compile-error ] || nvcc_rejected=''
  GRADE_NVCC_REJECTED=''
  name=$(basename "$(exercise_file "$lesson")")
  shipped=$GRADE_SHIPPED/$lesson/$name
  solution=$GRADE_SOLUTIONS/$lesson/solution.${name##*.}
  [ -f "$solution" ] || solution=''
  echo "tasks:" >>"$log"
  while IFS=$'\t' read -r task title; do
    points=${GRADE_POINTS[$lesson,$task]:-1}
    note=''
    case $verdict in
      pass) task_verdict=pass ;;
      not-submitted | refused | could-not-run) task_verdict=$verdict ;;
      *)
        mine=$(task_region "$shipped" "$file" "$task")
        if [ "$nvcc_rejected" = yes ]; then
          task_verdict=fail note="nvcc (the compiler of record) rejects the lesson: no task earns credit"
        elif [ "$mine" = "$(task_region "$shipped" "$shipped" "$task")" ]; then
          task_verdict=fail note="left as shipped"
        elif [ -z "$solution" ]; then
          if [[ ",$ATTEMPT_TASKS," == *",$task,"* ]]; then task_verdict=fail note="named by the check"
          else task_verdict=not-judged note="no solutions/ to judge it alone"
          fi
        elif [ "$mine" = "$(task_region "$shipped" "$solution" "$task")" ]; then
          task_verdict=pass note="same as the reference"
        else
          grade_restore "$WB_ROOT" "$BUILD"
          splice_task "$shipped" "$solution" "$file" "$task" >"$(exercise_file "$lesson")"
          # What the spliced build and runs print may quote the reference: it goes to a log of
          # the instructor's (logs/STUDENT/NN-slug.task-N.log), never to the student's gradebook,
          # which gets the verdict alone.
          local saved_tasks=$ATTEMPT_TASKS task_log=${log%.log}.task-$task.log
          echo "--- task $task alone (the reference's other tasks): see ${task_log##*/}" >>"$log"
          : >"$task_log"
          GRADE_SPLICED_TASK=$task grade_attempt "$lesson" "$backend" "$task_log"
          ATTEMPT_TASKS=$saved_tasks
          case $ATTEMPT in
            pass) task_verdict=pass note="judged with the reference's other tasks" ;;
            could-not-run) task_verdict=could-not-run note="${ATTEMPT_MESSAGE%%(*}" ;;
            *) task_verdict=fail note="with the reference's other tasks: $ATTEMPT" ;;
          esac
        fi ;;
    esac
    # A task the failed check named together with others says so: its own verdict is the one
    # judged alone, so the shared check costs points once.
    if [[ ",$ATTEMPT_TASKS," == *",$task,"* && $ATTEMPT_TASKS == *,* ]]; then
      note+="${note:+; }the failed check covers tasks ${ATTEMPT_TASKS//,/, } together"
    fi
    local got=0
    [ "$task_verdict" = pass ] && got=$points
    [ "$task_verdict" = could-not-run ] && got=''
    printf 'T\037%s\037%s\037%s\037%s\037%s\037%s\037%s\n' "$lesson" "$task" "$task_verdict" "$got" "$points" "$title" "${note//$'\037'/ }" >>"$record"
    echo "  task $task ($title): $task_verdict${got:+, $got of $points points}${note:+ ($note)}" >>"$log"
  done < <(task_titles "$shipped")
  GRADE_NVCC_REJECTED='' # the per-task attempts above may set it: never for the next submission
}

# --- The gradebooks, written from the students' records --------------------------------------------
# A student's record (logs/STUDENT/grade.record), fields separated by the ASCII unit separator
# (\037; a tab would let `read` merge an empty field with the next):
#     L  NN-slug  VERDICT  POINTS  MAX  SECONDS  MESSAGE
#     T  NN-slug  TASK  VERDICT  POINTS  MAX  TITLE  NOTE
# POINTS is empty where the check could not run (never a zero). OUT/grade-info.tsv holds the
# run's backend, lessons, seed and time limit. --merge joins shards by copying their logs/.
grade_students() { # OUT -> the students with a record, sorted
  local dir
  for dir in "$1"/logs/*/ "$1"/logs/.[!.]*/ "$1"/logs/..?*/; do [ -f "$dir/grade.record" ] && { dir=${dir%/}; printf '%s\n' "${dir##*/}"; }; done | LC_ALL=C sort
}
grade_info() { # OUT KEY
  sed -n "s/^$2\t//p" "$1/grade-info.tsv" | head -n 1
}
# A lesson's log as a gradebook holds it: the first 128 KiB (the whole log stays in logs/).
grade_log_excerpt() { # LOG
  local size
  size=$(stat -c %s "$1" 2>/dev/null || echo 0)
  head -c 131072 "$1"
  [ "$size" -le 131072 ] || printf '\n[log cut at 131072 bytes of %s: the whole log is in logs/]\n' "$size"
}
grade_log_xml() { # LOG: what `grade_log_excerpt LOG | xml_escape` prints (but for the final newlines)
  local LC_ALL=C
  local -a parts=()
  # A log under the cut, without NUL bytes (one part): read by the shell, escaped by xml_of.
  if [ -f "$1" ] && mapfile -d '' parts <"$1" && { [ ${#parts[@]} -eq 0 ] || { [ ${#parts[@]} -eq 1 ] && [ ${#parts[0]} -lt 131072 ]; }; }; then
    xml_of "${parts[0]-}"
  else
    grade_log_excerpt "$1" | xml_escape
  fi
}
sum_points() { awk -F'\037' '{ s += $1 } END { printf "%g", s }'; } # stdin: one number per line
# One student's record, read once by the shell (the gradebooks below need each field several
# times): REC_VERDICT, REC_POINTS, REC_MAX and REC_MESSAGE per lesson, REC_TASK per "lesson,task"
# (the task's points), REC_TOTAL and REC_SUM_MAX (the sums, as sum_points gives them).
declare -A REC_VERDICT=() REC_POINTS=() REC_MAX=() REC_MESSAGE=() REC_TASK=()
REC_TOTAL='' REC_SUM_MAX=''
grade_read_record() { # RECORD
  local kind lesson a b c e
  REC_VERDICT=() REC_POINTS=() REC_MAX=() REC_MESSAGE=() REC_TASK=()
  while IFS=$'\037' read -r kind lesson a b c _ e; do
    [ -n "$lesson" ] || continue
    case $kind in
      L)
        [ -n "${REC_VERDICT[$lesson]+set}" ] && continue
        REC_VERDICT[$lesson]=$a REC_POINTS[$lesson]=$b REC_MAX[$lesson]=$c
        REC_MESSAGE[$lesson]=$e ;;
      T)
        # (awk compared task numbers as numbers)
        [[ $a =~ ^[0-9]+$ ]] || continue
        a=$((10#$a))
        [ -n "${REC_TASK[$lesson,$a]+set}" ] || REC_TASK[$lesson,$a]=$c ;;
    esac
  done <"$1"
  read -r REC_TOTAL REC_SUM_MAX < <(awk -F'\037' '$1 == "L" { s += $4; m += $5 } END { printf "%g %g\n", s, m }' "$1")
}
write_gradebooks() { # OUT: grades.csv, junit.xml, STUDENT/results.json, summary.txt, tasks.txt
  local out=$1 student record lesson task line kind verdict points max seconds message title note
  local -a students lessons
  mapfile -t students < <(grade_students "$out")
  read -r -a lessons <<<"$(grade_info "$out" lessons)"
  local where seed host
  where=$(grade_info "$out" backend)
  seed=$(grade_info "$out" seed)
  host=$(uname -n | xml_escape)
  declare -A ntasks=()
  for lesson in "${lessons[@]}"; do
    ntasks[$lesson]=$(awk -F'\037' -v l="$lesson" '$1 == "T" && $2 == l { print $3 }' "$out"/logs/*/grade.record 2>/dev/null | sort -n | tail -n 1)
  done

  # grades.csv: one row per student; per lesson its verdict, points and each task's points.
  {
    printf 'student'
    for lesson in "${lessons[@]}"; do
      printf ',%s' "${lesson%%-*} verdict" "${lesson%%-*} points"
      for ((task = 1; task <= ${ntasks[$lesson]:-0}; task++)); do printf ',%s' "${lesson%%-*} task $task"; done
    done
    printf ',total,max\r\n'
    for student in "${students[@]}"; do
      grade_read_record "$out/logs/$student/grade.record"
      csv_field "$student"
      local total='' unknown=no
      for lesson in "${lessons[@]}"; do
        verdict=${REC_VERDICT[$lesson]:-}
        printf ',%s,%s' "$verdict" "${REC_POINTS[$lesson]:-}"
        [ "$verdict" = could-not-run ] && unknown=yes
        for ((task = 1; task <= ${ntasks[$lesson]:-0}; task++)); do
          printf ',%s' "${REC_TASK[$lesson,$task]:-}"
        done
      done
      total=$REC_TOTAL
      [ $unknown = no ] || total=''
      printf ',%s,%s\r\n' "$total" "$REC_SUM_MAX"
    done
  } | write_atomic "$out/grades.csv"

  # tasks.txt: STUDENT NN TASK VERDICT (spaces in names as _).
  local shown
  for student in "${students[@]}"; do
    # The name is data: printed by printf, never given to awk (-v would expand its backslashes).
    shown=$(clean_line "${student// /_}")
    while IFS=$'\037' read -r kind lesson task verdict _; do
      [ "$kind" = T ] && printf '%s %s %s %s\n' "$shown" "${lesson%%-*}" "$task" "$verdict"
    done <"$out/logs/$student/grade.record"
  done | write_atomic "$out/tasks.txt"

  # junit.xml: one suite per student, one case per lesson; the student's faults are failures,
  # the grader's (could-not-run) errors.
  local suites='' cases tests failures errors all_tests=0 all_failures=0 all_errors=0 log name stamp
  for student in "${students[@]}"; do
    record=$out/logs/$student/grade.record
    name=$(xml_of "$student")
    cases='' tests=0 failures=0 errors=0
    while IFS=$'\037' read -r kind lesson verdict points max seconds message; do
      [ "$kind" = L ] || continue
      tests=$((tests + 1))
      log=$out/logs/$student/$lesson.log
      cases+="    <testcase classname=\"$name\" name=\"$lesson\" time=\"$seconds\">"$'\n'
      cases+="      <properties><property name=\"points\" value=\"$points\"/><property name=\"max_points\" value=\"$max\"/></properties>"$'\n'
      if [ "$verdict" = could-not-run ]; then
        errors=$((errors + 1))
        cases+="      <error type=\"$verdict\" message=\"$(xml_of "$message")\">$(grade_log_xml "$log")</error>"$'\n'
      elif [ "$verdict" != pass ]; then
        failures=$((failures + 1))
        cases+="      <failure type=\"$verdict\" message=\"$(xml_of "$message")\">$(grade_log_xml "$log")</failure>"$'\n'
      fi
      cases+="    </testcase>"$'\n'
    done <"$record"
    all_tests=$((all_tests + tests)) all_failures=$((all_failures + failures)) all_errors=$((all_errors + errors))
    TZ=UTC printf -v stamp '%(%Y-%m-%dT%H:%M:%S)T' -1
    suites+="  <testsuite name=\"$name\" tests=\"$tests\" failures=\"$failures\" errors=\"$errors\" skipped=\"0\" timestamp=\"$stamp\" hostname=\"$host\">"$'\n'
    suites+="    <properties><property name=\"backend\" value=\"$(xml_of "$where")\"/><property name=\"seed\" value=\"$seed\"/></properties>"$'\n'
    suites+=$cases"  </testsuite>"$'\n'
  done
  {
    echo '<?xml version="1.0" encoding="UTF-8"?>'
    echo "<testsuites name=\"workbook grade\" tests=\"$all_tests\" failures=\"$all_failures\" errors=\"$all_errors\">"
    printf '%s' "$suites"
    echo "</testsuites>"
  } | write_atomic "$out/junit.xml"

  # STUDENT/results.json, in Gradescope's autograder format: one test per task. A student with a
  # check that could not run gets none: Gradescope then reports an autograder failure, not a score.
  local graded status text
  graded=$(json_of "Graded $where.")
  for student in "${students[@]}"; do
    record=$out/logs/$student/grade.record
    mkdir -p "$out/$student"
    grade_read_record "$record"
    if [[ " ${REC_VERDICT[*]} " == *" could-not-run "* ]]; then
      rm -f "$out/$student/results.json"
      continue
    fi
    {
      printf '{\n  "score": %s,\n' "$REC_TOTAL"
      printf '  "output": %s,\n' "$graded"
      printf '  "tests": [\n'
      local first=yes lesson_verdict lesson_message
      while IFS=$'\037' read -r kind lesson task verdict points max title note; do
        [ "$kind" = T ] || continue
        lesson_verdict=${REC_VERDICT[$lesson]:-} lesson_message=${REC_MESSAGE[$lesson]:-}
        [ $first = yes ] || printf ',\n'
        first=no
        status=failed
        [ "$verdict" != pass ] || status=passed
        printf -v title 'Lesson %s, task %s: %s' "${lesson%%-*}" "$task" "$title"
        printf -v text '%s%s\nlesson %s: %s%s' "$verdict" "${note:+ ($note)}" "${lesson%%-*}" "$lesson_verdict" "${lesson_message:+: $lesson_message}"
        printf '    {"name": %s, "number": "%s.%s", "score": %s, "max_score": %s, "status": "%s", "output": %s}' \
          "$(json_of "$title")" "${lesson%%-*}" "$task" "${points:-0}" "$max" "$status" "$(json_of "$text")"
      done <"$record"
      printf '\n  ]\n}\n'
    } | write_atomic "$out/$student/results.json"
  done

  # summary.txt: one row per student, a cell per lesson (POINTS/MAX:VERDICT), the total; each
  # column as wide as its widest cell, padded by characters (not bytes), so names with accents
  # line up.
  local width=7 cell length s
  local -A cells=() widths=()
  local -a lengths=()
  # (each name's length as awk measures it, all in one awk)
  [ ${#students[@]} -eq 0 ] || mapfile -t lengths < <(printf '%s\n' "${students[@]}" | LC_ALL=C.UTF-8 awk '{ print length($0) }')
  for s in "${!students[@]}"; do
    student=${students[$s]}
    length=${lengths[$s]:-0}
    [ "$length" -lt $width ] || width=$((length + 1))
    grade_read_record "$out/logs/$student/grade.record"
    local unknown=no
    for lesson in "${lessons[@]}"; do
      verdict=${REC_VERDICT[$lesson]:-} points=${REC_POINTS[$lesson]:-} max=${REC_MAX[$lesson]:-}
      case $verdict in
        not-submitted) cell=-- ;;
        could-not-run) cell="??" unknown=yes ;;
        *) cell="$points/$max:$verdict" ;;
      esac
      cells[$student,$lesson]=$cell
      [ "${#cell}" -le "${widths[$lesson]:-2}" ] || widths[$lesson]=${#cell}
    done
    if [ $unknown = yes ]; then
      cells[$student,total]="??"
    else
      cells[$student,total]="$REC_TOTAL/$REC_SUM_MAX"
    fi
  done
  {
    echo "# workbook grade: $(date '+%Y-%m-%d %H:%M')"
    printf '%s\n' "checks ran $where" | fold -s -w 76 | sed 's/^/# /; s/ *$//' # within 80 columns
    echo "# each cell: points/max:verdict (-- not submitted, ?? could not run: no grade)"
    pad "$width" student
    for lesson in "${lessons[@]}"; do printf '  '; pad "${widths[$lesson]:-2}" "${lesson%%-*}"; done
    printf '  total\n'
    for student in "${students[@]}"; do
      pad "$width" "$student"
      for lesson in "${lessons[@]}"; do
        printf '  '
        pad "${widths[$lesson]:-2}" "${cells[$student,$lesson]}"
      done
      printf '  %s\n' "${cells[$student,total]}"
    done
    [ ! -s "$out/skipped.txt" ] || sed 's/^/skipped: /' "$out/skipped.txt" | fold -s -w 76 | sed 's/^/# /; s/ *$//'
  } | write_atomic "$out/summary.txt"
  GRADE_ERRORS=$all_errors
}

# --- Students, as their submissions arrive -----------------------------------------------------------
# Fills STUDENTS, ROOTS (where each one's lessons are), DIRS (their own folder, for the link check)
# and FLAT (yes where the exercise may sit at the top of the folder). A file at the top of
# SUBMISSIONS is an LMS bulk download's: the student is the part of its name before the first "_"
# (Moodle: "Alice Smith_1234_assignsubmission_file_exercise.cu"; Canvas: "smithalice_12_34_x.cu"),
# and it is the exercise of the one lesson graded; it is copied into STAGE/STUDENT/NN-slug/.
# A student's name is a folder or file name, so anything: it is graded under that name when every
# gradebook can hold it and it names no file of the grader's own in OUT; otherwise the entry is
# skipped, with the reason on the console and in OUT/skipped.txt, and grade exits 4 (3 wins).
GRADE_RESERVED=" grades.csv junit.xml summary.txt tasks.txt skipped.txt grade-info.tsv logs work shards "
grade_name_ok() { # NAME ENTRY
  if [ "$(printf '%s' "$1" | clean_text)" != "$1" ] || [[ $1 == *$'\n'* || $1 == *[[:cntrl:]]* ]]; then
    grade_skip "$2" "its name has control characters or bytes that are not UTF-8"
  elif [[ $GRADE_RESERVED == *" $1 "* ]]; then
    grade_skip "$2" "its name is one of grade's own files"
  else
    return 0
  fi
  return 1
}
GRADE_SKIPS=()
grade_skip() { # ENTRY REASON
  local shown
  shown=$(printf '%q' "${1##*/}")
  GRADE_SKIPS+=("$shown: $2")
  warn "warning: skipped $(clean_line "$shown"): $2"
}
STUDENTS=() ROOTS=() DIRS=() FLAT=()
find_students() { # SUBMISSIONS STAGE LESSON...
  local subs=$1 stage=$2 entry student root name lesson flat=no
  shift 2
  [ $# -eq 1 ] && flat=yes
  STUDENTS=() ROOTS=() DIRS=() FLAT=()
  local -A seen=()
  for entry in "$subs"/* "$subs"/.[!.]* "$subs"/..?*; do
    [ -e "$entry" ] || [ -L "$entry" ] || continue
    name=${entry##*/}
    if [ -d "$entry" ] && [ ! -L "$entry" ]; then
      grade_name_ok "$name" "$entry" || continue
      student=$name root=$entry
      if [ -d "$entry/lessons" ]; then root=$entry/lessons # a whole tree or a git clone
      fi
      [ -z "${seen[$student]:-}" ] || { grade_skip "$entry" "$student is already graded from another entry"; continue; }
      seen[$student]=1
      STUDENTS+=("$student") ROOTS+=("$root") DIRS+=("$entry") FLAT+=("$flat")
    elif [[ $name == *.cu || $name == *.c ]]; then
      [ $# -eq 1 ] || usage_error "grade: $name is one file: name the one lesson it is for (--lessons NN)"
      lesson=$1
      [ "${name##*.}" = "$(basename "$(exercise_file "$lesson")" | sed 's/.*\.//')" ] ||
        { grade_skip "$entry" "not a $(basename "$(exercise_file "$lesson")" | sed 's/.*\././') file for lesson ${lesson%%-*}"; continue; }
      student=${name%%_*}
      [ "$student" != "$name" ] || student=${name%.*}
      grade_name_ok "$student" "$entry" || continue
      [ -z "${seen[$student]:-}" ] || { grade_skip "$entry" "$student has another file"; continue; }
      seen[$student]=1
      mkdir -p "$stage/$student/$lesson"
      if [ -L "$entry" ]; then
        ln -s "$(readlink "$entry")" "$stage/$student/$lesson/$(basename "$(exercise_file "$lesson")")"
      else
        cp "$entry" "$stage/$student/$lesson/$(basename "$(exercise_file "$lesson")")"
      fi
      STUDENTS+=("$student") ROOTS+=("$stage/$student") DIRS+=("$stage/$student") FLAT+=(no)
    fi
  done
}

cmd_grade() {
  # The grader reads the simulator's messages from the logs (the crash verdict): one line each.
  export CUSIM_COLUMNS=0
  local subs='' out='' only='' grading='' seed='' jobs=1 shard='' merge=no
  local -a merge_dirs=() pass_on=()
  GRADE_TIMEOUT=${WORKBOOK_GRADE_TIMEOUT:-60}
  GRADE_OUTPUT_LIMIT=65536 GRADE_NO_SANDBOX=no GRADE_SKIPPED=0
  GRADE_BUILD_TIMEOUT=${WORKBOOK_GRADE_BUILD_TIMEOUT:-300} GRADE_BUILD_MEMORY=${WORKBOOK_GRADE_BUILD_MEMORY:-4096}
  GRADE_RUN_MEMORY=${WORKBOOK_GRADE_RUN_MEMORY:-4096} GRADE_RUN_PROCS=${WORKBOOK_GRADE_RUN_PROCS:-256}
  while [ $# -gt 0 ]; do
    case $1 in
      -h | --help) help_grade; return 0 ;;
      --output) [ $# -ge 2 ] || usage_error "grade: --output needs a folder"; out=$2; shift ;;
      --lessons) [ $# -ge 2 ] || usage_error "grade: --lessons needs a list like 03-05,07"; only=$2; pass_on+=("$1" "$2"); shift ;;
      --timeout)
        [[ $# -ge 2 && $2 =~ ^[0-9]+$ && $2 -gt 0 ]] || usage_error "grade: --timeout needs a number of seconds, e.g. --timeout 30"
        GRADE_TIMEOUT=$2; pass_on+=("$1" "$2"); shift ;;
      --grading)
        [ $# -ge 2 ] && [ -f "$2" ] || usage_error "grade: --grading needs a file (points and hidden inputs)"
        grading=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); pass_on+=("$1" "$grading"); shift ;;
      --seed) [[ $# -ge 2 && $2 =~ ^[0-9]{1,9}$ && 10#$2 -ge 2 ]] || usage_error "grade: --seed needs a number of 2 or more (seed 1 gives the shipped inputs)"; seed=$2; shift ;;
      --jobs) [[ $# -ge 2 && $2 =~ ^[1-9][0-9]?$ ]] || usage_error "grade: --jobs needs a number from 1 to 99"; jobs=$2; shift ;;
      --shard)
        [[ $# -ge 2 && $2 =~ ^([1-9][0-9]*)/([1-9][0-9]*)$ ]] && [ "${BASH_REMATCH[1]}" -le "${BASH_REMATCH[2]}" ] ||
          usage_error "grade: --shard needs I/N with 1 <= I <= N, e.g. --shard 2/4"
        shard=$2; shift ;;
      --merge) merge=yes ;;
      --no-sandbox) GRADE_NO_SANDBOX=yes; pass_on+=("$1") ;;
      --output-limit)
        [[ $# -ge 2 && $2 =~ ^[1-9][0-9]{2,9}$ ]] || usage_error "grade: --output-limit needs a number of bytes (at least 100), e.g. --output-limit 65536"
        GRADE_OUTPUT_LIMIT=$2; pass_on+=("$1" "$2"); shift ;;
      --build-timeout)
        [[ $# -ge 2 && $2 =~ ^[1-9][0-9]{0,5}$ ]] || usage_error "grade: --build-timeout needs a number of seconds, e.g. --build-timeout 300"
        GRADE_BUILD_TIMEOUT=$2; pass_on+=("$1" "$2"); shift ;;
      --build-memory | --run-memory)
        [[ $# -ge 2 && $2 =~ ^(0|[1-9][0-9]{2,7})$ ]] || usage_error "grade: $1 needs a number of MiB (at least 100, or 0 for none), e.g. $1 4096"
        if [ "$1" = --build-memory ]; then GRADE_BUILD_MEMORY=$2; else GRADE_RUN_MEMORY=$2; fi
        pass_on+=("$1" "$2"); shift ;;
      --run-procs)
        [[ $# -ge 2 && $2 =~ ^(0|[1-9][0-9]{1,5})$ ]] || usage_error "grade: --run-procs needs a number (at least 10, or 0 for none), e.g. --run-procs 256"
        GRADE_RUN_PROCS=$2; pass_on+=("$1" "$2"); shift ;;
      -*) usage_error "grade: unknown option '$1'" ;;
      *)
        if [ $merge = yes ]; then merge_dirs+=("$1")
        else [ -z "$subs" ] || usage_error "grade: one submissions folder"; subs=$1
        fi ;;
    esac
    shift
  done
  if [ $merge = yes ]; then grade_merge "${out:-$BUILD/grade}" "${merge_dirs[@]}"; return; fi
  [ -n "$subs" ] || usage_error "grade: which folder holds the submissions? (try: $WB_NAME grade --help)"
  [ -d "$subs" ] || usage_error "grade: $subs is not a folder"
  subs=$(cd "$subs" && pwd)
  out=${out:-$BUILD/grade}
  mkdir -p "$out" && out=$(cd "$out" && pwd)
  GRADE_SEED=${seed:-$(( $(od -An -N4 -tu4 /dev/urandom | tr -d ' ') % 999999998 + 2 ))}
  GRADE_TAG=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n') GRADE_WORK=$out/work
  # No sandbox is a choice the instructor makes (--no-sandbox), never a fallback: decided first.
  grade_sandbox_setup
  # A new grade: the records and results of an earlier one in OUT go (its work folders stay).
  local old
  for old in "$out"/*/results.json; do [ -f "$old" ] && rm -f "$old" && rmdir "${old%/*}" 2>/dev/null; done
  rm -rf "${out:?}/logs" "$out/grades.csv" "$out/junit.xml" "$out/summary.txt" "$out/tasks.txt" "$out/skipped.txt"
  [ "$jobs" -eq 1 ] || { grade_parallel "$subs" "$out" "$jobs" "${pass_on[@]}"; return; }

  # The lessons: --lessons (each must exist), else every lesson someone submitted.
  local -a lessons=()
  local lesson number file
  if [ -n "$only" ]; then
    mapfile -t lessons < <(parse_lessons "$only" grade) || exit 2
    [ ${#lessons[@]} -gt 0 ] && [ -n "${lessons[0]}" ] || exit 2
  fi
  local stage=$out/work/submissions
  chmod -R u+w "$out/work" 2>/dev/null
  rm -rf "$stage"
  mkdir -p "$stage"
  find_students "$subs" "$stage" "${lessons[@]}"
  if [ ${#GRADE_SKIPS[@]} -gt 0 ]; then printf '%s\n' "${GRADE_SKIPS[@]}" | clean_text; else :; fi | write_atomic "$out/skipped.txt"
  [ ${#STUDENTS[@]} -gt 0 ] || usage_error "grade: $subs has no student folders or files"
  if [ ${#lessons[@]} -eq 0 ]; then
    local root
    for lesson in "${ALL_LESSONS[@]}"; do
      for root in "${ROOTS[@]}"; do
        [ -n "$(submitted_exercise "$root" "$lesson")" ] && { lessons+=("$lesson"); break; }
      done
    done
  fi
  [ ${#lessons[@]} -gt 0 ] || usage_error "grade: no lesson to grade (no exercise files found under $subs; name them with --lessons)"
  # A shard: every N-th student from the I-th.
  local -a picked=()
  local s
  for s in "${!STUDENTS[@]}"; do
    if [ -z "$shard" ] || [ $((s % ${shard#*/})) -eq $((${shard%/*} - 1)) ]; then picked+=("$s"); fi
  done

  # A pristine tree (no solutions/, no grading files) and its build, kept between runs so that a
  # regrade is quick.
  local tree=$out/work/tree gbuild=$out/work/build lesson_list
  lesson_list=$(lesson_numbers "${lessons[@]}")
  lesson_list=${lesson_list// /;}
  say "Grading $(counted "${#picked[@]}" student)${shard:+ (shard $shard of ${#STUDENTS[@]})} on lessons ${lesson_list//;/, } (work folder: $out/work)" | grade_console
  chmod -R u+w "$tree" 2>/dev/null
  rm -rf "$tree"
  grade_tree "$WB_ROOT" "$tree" "${lessons[@]}"
  # Newer than anything an earlier grade built from a submission in the same work folder (the
  # copy keeps the files' times, and make compares times).
  touch "$tree"/lessons/*/exercise.c*
  mkdir -p "$gbuild/workbook/logs"
  # Ninja where it is installed (a build of one exercise is then a few processes, where Make walks
  # every target of the simulator first); a build folder kept from an earlier grade keeps its own.
  local -a generator=()
  [ -f "$gbuild/CMakeCache.txt" ] || ! command -v ninja >/dev/null || generator=(-G Ninja)
  # No precompiled prelude (CUSIM_PRELUDE_PCH, shared/sim/cusim.cmake): each submission gets a
  # copy of this build, and its 27 MB per set of flags would cost more to copy than the few
  # graded files it saves (0.18 s each). No NVRTC module cache (WB_NVRTC_CACHE): a submission's
  # run must never leave a module that a later run (its tasks judged alone) would load.
  if ! (cd "$tree" && cmake --preset default "${generator[@]}" -B "$gbuild" "-DWB_LESSONS=$lesson_list" "-DWB_TEST_TIMEOUT=$GRADE_TIMEOUT" -DCUSIM_PRELUDE_PCH=OFF -DWB_NVRTC_CACHE=OFF "${EXTRA_CMAKE_ARGS[@]}") >"$gbuild/workbook/logs/configure.log" 2>&1; then
    tail -n 25 "$gbuild/workbook/logs/configure.log"
    fatal "grade: the pristine tree does not configure (log: $gbuild/workbook/logs/configure.log)"
  fi
  # The exercises as shipped, which submissions are compared with (git, the export snapshot or the
  # workbook's first copy; else this tree's own file), and the reference solutions, which judge
  # each task alone; taken before the helpers move to the copy.
  local shipped_dir=$out/work/shipped
  rm -rf "$shipped_dir"
  GRADE_SOLUTIONS=$WB_ROOT/solutions
  for lesson in "${lessons[@]}"; do
    file=$(shipped_exercise "$lesson")
    [ -n "$file" ] || file=$(exercise_file "$lesson")
    mkdir -p "$shipped_dir/$lesson"
    cp "$file" "$shipped_dir/$lesson/$(basename "$(exercise_file "$lesson")")"
  done
  GRADE_POINTS=() GRADE_INPUTS=()
  load_grading "$WB_ROOT" "$grading" "${lessons[@]}"
  # From here the helpers work on the pristine build and its copy of the lessons.
  # shellcheck disable=SC2034 # the workbook's settings, used by its helpers
  BUILD=$gbuild PROGRESS=$gbuild/workbook-progress.txt STATE=$gbuild/workbook WB_ROOT=$tree
  GRADE_SHIPPED=$shipped_dir
  load_tests
  grade_find_backend
  local where
  where=$(backend_summary)
  say "Checks run $where (found just now, on $(uname -n))" | grade_console
  # The sandbox shows the system, the graded tree and its build, nothing else (sandbox.sh); these
  # are hidden even where they lie inside what it shows.
  export WB_SANDBOX_HIDE="$GRADE_SOLUTIONS:$subs:$out/logs:$out/work/submissions:$out/work/base:$shipped_dir${grading:+:$grading}"
  export WB_SANDBOX_SHOW="$tree:$gbuild"
  # The base: everything but the exercises built once, then copied for each submission.
  local -a base_targets=()
  for lesson in "${lessons[@]}"; do base_targets+=("$lesson.exercise.$(backend_for "$lesson")"); done
  build_targets "$gbuild/workbook/logs/base.build.log" "${base_targets[@]}" ||
    fatal "grade: the pristine tree does not build (log: $gbuild/workbook/logs/base.build.log)"
  for lesson in "${lessons[@]}"; do
    GRADE_SHIPPED_ARGS[$lesson]=$(shipped_argsets "$lesson" "$(backend_for "$lesson")")
    [ -n "${GRADE_SHIPPED_ARGS[$lesson]}" ] || fatal "grade: no test of lesson ${lesson%%-*}'s exercise in the grading build"
  done
  grade_sandbox_tools "${base_targets[@]}"
  # A run's memory limit needs a memory cgroup (RLIMIT_DATA would switch off the simulator's
  # memory checker, which reserves terabytes): without one, grade says so once.
  if [ "$GRADE_RUN_MEMORY" -gt 0 ] && [ "$("${WB_SELF%/*}/shared/workbook/limits.sh" --probe)" != cgroup ]; then
    warn "warning: no cgroup can be made here (grade runs as root where it can):"
    warn "  --run-memory is not enforced, and --run-procs is RLIMIT_NPROC's (see docs/instructor-guide.md)"
  fi
  for lesson in "${lessons[@]}"; do grade_check_inputs "$lesson" "$(backend_for "$lesson")"; done
  # CMake's compiler identification left its scratch in the build folder (the test programs it
  # compiled, nvcc's temporaries): half the folder's bytes, never read again. Every submission
  # starts from a copy of the base, so it is left out of it.
  rm -rf "$gbuild"/CMakeFiles/[0-9]*/CompilerId* "$gbuild/CMakeFiles/CheckCUDA"
  grade_snapshot "$tree" "$gbuild"
  say "This grade's seed: $GRADE_SEED (an input of its own for every lesson; --seed repeats it)" | grade_console
  printf 'backend\t%s\nlessons\t%s\nseed\t%s\ntimeout\t%s\nlimits\t%s\n' "$where" "${lessons[*]}" "$GRADE_SEED" "$GRADE_TIMEOUT" \
    "build $GRADE_BUILD_TIMEOUT s, $GRADE_BUILD_MEMORY MiB; run $GRADE_RUN_MEMORY MiB, $GRADE_RUN_PROCS processes" >"$out/grade-info.tsv"

  local backend verdict message started elapsed record log max points screened
  for s in "${picked[@]}"; do
    local student=${STUDENTS[$s]}
    rm -rf "${out:?}/logs/$student"
    mkdir -p "$out/logs/$student"
    record=$out/logs/$student/grade.record
    : >"$record"
    for lesson in "${lessons[@]}"; do
      backend=$(backend_for "$lesson")
      file=$(submitted_exercise "${ROOTS[$s]}" "$lesson" "${FLAT[$s]}")
      log=$out/logs/$student/$lesson.log
      started=${EPOCHREALTIME/[!0-9]/.} # (the locale's decimal point made a dot)
      ATTEMPT_TASKS=''
      if [ -z "$file" ]; then
        verdict=not-submitted message="not submitted"
        echo "no $(basename "$(exercise_file "$lesson")") for lesson ${lesson%%-*} in ${ROOTS[$s]}" >"$log"
      elif screen_submission "${DIRS[$s]}" "$file" "$lesson" >"$log.screen" 2>&1; screened=$?
        clean_text <"$log.screen" >"$log" # the rules quote the student's lines
        rm -f "$log.screen"
        [ $screened -ne 0 ]; then
        verdict=refused message=$(sed -n '1s/^refused: //p' <(grep -m 1 '^refused: ' "$log" | head -c 300))
        message="refused: ${message:-see the log}"
      else
        # A fresh copy of the course files; only the exercise file comes from the student (touched
        # so the build sees the change).
        grade_restore "$tree" "$gbuild"
        GRADE_LAST="$student, lesson ${lesson%%-*}"
        rebuilt_submission "$GRADE_SHIPPED/$lesson/$(basename "$(exercise_file "$lesson")")" "$file" >"$(exercise_file "$lesson")" &&
          touch "$(exercise_file "$lesson")"
        echo "graded on $(backend_words "$backend")" >>"$log"
        grade_attempt "$lesson" "$backend" "$log"
        verdict=$ATTEMPT message=$ATTEMPT_MESSAGE
      fi
      grade_credit "$student" "$lesson" "$file" "$verdict" "$backend" "$log" "$record"
      # The lesson's points and their maximum (as sum_points adds them), and its seconds: one awk.
      IFS=$'\t' read -r max points elapsed < <(awk -F'\037' -v l="$lesson" -v a="$started" -v b="${EPOCHREALTIME/[!0-9]/.}" '
        $1 == "T" && $2 == l { m += $6; p += $5 }
        END { printf "%g\t%g\t%.2f\n", m, p, b - a }' "$record")
      [ "$verdict" = could-not-run ] && points=''
      printf 'L\037%s\037%s\037%s\037%s\037%s\037%s\n' "$lesson" "$verdict" "$points" "$max" "$elapsed" "${message//$'\037'/ }" >>"$record"
      # The console line: the verdict once (the message may start with it, in words).
      local said=${message#"$verdict: "}
      said=${said#"${verdict//-/ }: "}
      [ "$said" != "${verdict//-/ }" ] || said=''
      local line
      line=$(printf '  %s %s %s' "$(pad 20 "$student")" "${lesson%%-*}" "$verdict${said:+: $said}${points:+ [$points/$max]}")
      if [ ! -t 1 ] && [ "${WORKBOOK_WRAP:-}" != 1 ] && text_is_plain "$line"; then printf '%s\n' "$line"
      else grade_console <<<"$line"
      fi
    done
  done
  grade_finish "$out"
}
# Write the gradebooks and say where they are; status 3 when a check could not run.
grade_finish() { # OUT
  local out=$1
  # Every process of every run is gone before a gradebook is written (the runs' own sweeps ran
  # already; this one is the last word).
  [ -z "${GRADE_TAG:-}" ] || grade_sweep
  write_gradebooks "$out"
  say ""
  cat "$out/summary.txt"
  say ""
  good "grades.csv, junit.xml, summary.txt, tasks.txt, STUDENT/results.json: $out"
  if [ "${GRADE_ERRORS:-0}" -gt 0 ]; then
    bad "$(counted "$GRADE_ERRORS" check) could not run: the grader's fault, not the students' (no grade given)"
    exit 3
  fi
  if [ -s "$out/skipped.txt" ]; then
    bad "$(counted "$(wc -l <"$out/skipped.txt")" submission) skipped, not graded: each with its reason in $out/skipped.txt"
    exit 4
  fi
}
# The backend is found on this node, every run: never what a progress file remembers (it may come
# from another machine through a shared file system). WORKBOOK_BACKEND still forces one.
# shellcheck disable=SC2034 # GPU and GPU_DETAIL are the workbook's
grade_find_backend() {
  local lesson probe=''
  case ${WORKBOOK_BACKEND:-} in sim | cuda) gpu_check; return ;; esac
  for lesson in "${BUILT_LESSONS[@]}"; do
    [ -n "${HAVE_TEST[$lesson.exercise.cuda]:-}" ] && { probe=$lesson; break; }
  done
  if [ -z "$probe" ]; then
    GPU=no GPU_DETAIL="this build has no CUDA backend: no CUDA toolkit found, or WB_CUDA=OFF"
  else
    gpu_probe "$probe"
  fi
}
# --jobs N: N shards at once, each in its own work folder (OUT/shards/I), then merged.
grade_parallel() { # SUBMISSIONS OUT JOBS OPTIONS...
  local subs=$1 out=$2 jobs=$3 i status=0
  shift 3
  local -a pids=() dirs=()
  say "Grading in $jobs parallel shards (logs: $out/shards/I/grade.out)"
  for ((i = 1; i <= jobs; i++)); do
    mkdir -p "$out/shards/$i"
    dirs+=("$out/shards/$i")
    WORKBOOK_JOBS=1 "$WB_SELF" grade "$subs" --shard "$i/$jobs" --seed "$GRADE_SEED" --output "$out/shards/$i" "$@" \
      >"$out/shards/$i/grade.out" 2>&1 &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || { [ $? -eq 3 ] || { status=1; tail -n 5 "${dirs[$i]}/grade.out"; }; }
  done
  [ $status -eq 0 ] || fatal "grade: a shard failed (see $out/shards/*/grade.out)"
  grep -h -E '^  ' "${dirs[@]/%//grade.out}" 2>/dev/null | grep -v -E '^  (#|student)' | LC_ALL=C sort
  grade_merge "$out" "${dirs[@]}"
}
# --merge: the shards' records into one set of gradebooks.
grade_merge() { # OUT SHARD-DIR...
  local out=$1 dir student info=''
  shift
  [ $# -gt 0 ] || usage_error "grade --merge: which shard folders? e.g. grade --merge shard-1 shard-2 --output all"
  mkdir -p "$out/logs"
  for dir in "$@"; do
    [ -f "$dir/grade-info.tsv" ] || usage_error "grade --merge: $dir is not a grade output folder (no grade-info.tsv)"
    if [ -z "$info" ]; then
      info=$dir/grade-info.tsv
      [ "$dir/grade-info.tsv" -ef "$out/grade-info.tsv" ] || cp "$info" "$out/grade-info.tsv"
      [ ! -f "$dir/skipped.txt" ] || [ "$dir/skipped.txt" -ef "$out/skipped.txt" ] || cp "$dir/skipped.txt" "$out/skipped.txt"
    elif ! cmp -s <(grep -v '^timeout' "$info") <(grep -v '^timeout' "$dir/grade-info.tsv"); then
      warn "warning: $dir was graded with other lessons, seed or backend than ${info%/*}"
    fi
    for student in "$dir"/logs/*/ "$dir"/logs/.[!.]*/ "$dir"/logs/..?*/; do
      [ -d "$student" ] || continue
      student=${student%/}
      student=${student##*/}
      [ -f "$dir/logs/$student/grade.record" ] || continue
      [ "$dir/logs/$student" -ef "$out/logs/$student" ] && continue
      rm -rf "${out:?}/logs/$student"
      cp -r "$dir/logs/$student" "$out/logs/$student"
    done
  done
  grade_finish "$out"
}

# The grader's console: within 80 columns on a terminal (or with WORKBOOK_WRAP=1), continued under
# the lesson; one line per item in a pipe or a file, for grep (the full texts are in the logs).
grade_console() {
  if [ -t 1 ] || [ "${WORKBOOK_WRAP:-}" = 1 ]; then clean_text | help_text; else clean_text; fi
}
