# shellcheck shell=bash
# export.sh: `workbook export`, the instructor's student bundle (sourced by workbook, not run).
# Uses the workbook's helpers (say, warn, usage_error, shipped_exercise, ...) and its settings.

# --- export DIR --------------------------------------------------------------------------------
help_export() {
  help_text <<EOF
Usage: $WB_NAME export DIR [--lessons LIST] [--verify]

Writes a student bundle to DIR (new or empty, outside this tree): the
workbook script, the build files, shared/ and the lessons in LIST (numbers
and ranges, e.g. 03-05,07; default: all), each exercise as shipped, with a
README of the student's commands and the learner's docs (in English and
Simplified Chinese: docs/zh-CN/, each lesson's *.zh-CN.md). Never in it:
solutions/, the project's tests/ and .ci/, the maintainer docs and recipes,
build folders, .git, reset backups, lessons/*/grading.txt (points, hidden
inputs). A snapshot of the exercises (.workbook/shipped/) lets reset work
there.

It refuses the bundle, and removes it, if an answer would ship: a task region
that differs from the shipped exercise (shared/workbook/shipped-tasks.sha256),
a copy of a solution file, or an exercise that passes its check when the
bundle is built on the CPU simulator (a minute or two).

--verify also configures and builds the bundle in a temporary folder
(WORKBOOK_CMAKE_ARGS apply).
EOF
}
# A list of lessons, "03-05,07" (numbers and ranges; "3" and "03" alike) -> NN-slug per line, in
# order, each once. A lesson that does not exist is an error that says so (status 2).
parse_lessons() { # LIST COMMAND
  local item from to n lesson found
  local -a items out=()
  IFS=, read -r -a items <<<"${1// /}"
  for item in "${items[@]}"; do
    [ -n "$item" ] || continue
    if [[ $item =~ ^([0-9]{1,2})-([0-9]{1,2})$ ]]; then
      from=$((10#${BASH_REMATCH[1]})) to=$((10#${BASH_REMATCH[2]}))
    elif [[ $item =~ ^[0-9]{1,2}$ ]]; then
      from=$((10#$item)) to=$from
    else
      usage_error "$2: '$item' is not a lesson number or range (e.g. --lessons 03-05,07)"
    fi
    [ "$from" -le "$to" ] || usage_error "$2: the range '$item' runs backwards"
    for ((n = from; n <= to; n++)); do
      found=''
      for lesson in "${ALL_LESSONS[@]}"; do [ "${lesson%%-*}" = "$(printf '%02d' "$n")" ] && found=$lesson; done
      [ -n "$found" ] || usage_error "$2: there is no lesson $(printf '%02d' "$n") (lessons: $(lesson_numbers "${ALL_LESSONS[@]}"))"
      [[ " ${out[*]} " == *" $found "* ]] || out+=("$found")
    done
  done
  [ ${#out[@]} -gt 0 ] || usage_error "$2: --lessons names no lesson"
  printf '%s\n' "${out[@]}"
}
# The folders under ROOT that hold a CMakeCache.txt (a build folder, whatever its name; ROOT's own
# is not one), as find tests that prune them: WB_BUILD_PRUNES=(-o -path ./x/build ...). One find
# and no process per folder: a `-type d -exec test -f '{}/CMakeCache.txt'` in the copying find
# started a `test` for each of the tree's ~190 folders, in every copy and every export.
WB_BUILD_PRUNES=()
build_folder_prunes() { # ROOT
  local cache dir quoted c i
  WB_BUILD_PRUNES=()
  while IFS= read -r -d '' cache; do
    [ -f "$1/$cache" ] || continue
    dir=${cache%/CMakeCache.txt} quoted=''
    for ((i = 0; i < ${#dir}; i++)); do # find -path takes a pattern: quote * ? [ ] \ in the name
      c=${dir:i:1}
      case $c in '*' | '?' | '[' | ']' | \\) quoted+="\\$c" ;; *) quoted+=$c ;; esac
    done
    WB_BUILD_PRUNES+=(-o -path "$quoted")
  done < <(cd "$1" && find . -mindepth 2 \( -name .git -o -path './build*' \) -prune -o -name CMakeCache.txt -print0)
}
# Copy a source tree without .git, build folders (top-level build* or any folder holding a
# CMakeCache.txt) and reset backups; extra find tests name more paths to leave out.
copy_tree() { # SRC DST [FIND-PRUNE-TESTS...]
  local src=$1 dst=$2
  shift 2
  mkdir -p "$dst"
  build_folder_prunes "$src"
  (cd "$src" && find . -mindepth 1 \( -name .git -o -path './build*' -o -name '*.bak' "$@" \
      "${WB_BUILD_PRUNES[@]}" \) -prune -o ! -type d -print0 |
    xargs -0 -r cp -a --parents -t "$dst")
}
# --- What a bundle is: the course, and nothing else ---------------------------------------------
# The files to ship come from git's index where the tree is a git work tree (an untracked file
# never ships: a submission, a gradebook, a grading file), else from the tree's files (no .git,
# build folders, .bak). Each is one of: ship (the workbook script, the build files, shared/, the
# chosen lessons but their grading.txt, the learner's docs in English and Simplified Chinese: a
# lesson's README.zh-CN.md and hints.zh-CN.md, docs/zh-CN/ but the instructor guide), home (the
# project's own machinery and its top README in either language:
# solutions/, tests/, .ci/, the maintainer docs and recipes, grading files, lessons not chosen)
# or foreign (anything else). Outside git a foreign file refuses the bundle, by name: export cannot
# tell a submission or a gradebook from the course.
EXPORT_SOURCE='' EXPORT_SHIP=() EXPORT_FOREIGN=()
EXPORT_KIND=
export_kind() { # PATH LESSON...: EXPORT_KIND=ship | home | foreign (a variable: no subshell per file)
  local path=$1 lesson
  shift
  case $path in
    *.bak | lessons/*/grading.txt) EXPORT_KIND=home; return ;;
    workbook | CMakeLists.txt | .gitignore | shared/* | docs/getting-started.md | docs/troubleshooting.md) EXPORT_KIND=ship; return ;;
    docs/zh-CN/getting-started.md | docs/zh-CN/troubleshooting.md | docs/zh-CN/glossary.md) EXPORT_KIND=ship; return ;;
    README.md | README.zh-CN.md | CMakePresets.json | .clang-format | .ci/* | tests/* | solutions/* | .workbook/* | docs/*.md | docs/recipes/* | docs/template/*)
      EXPORT_KIND=home; return ;;
    lessons/*/*)
      lesson=${path#lessons/}
      lesson=${lesson%%/*}
      if [[ " $* " == *" $lesson "* ]]; then EXPORT_KIND=ship
      elif [[ " ${ALL_LESSONS[*]} " == *" $lesson "* ]]; then EXPORT_KIND=home
      else EXPORT_KIND=foreign
      fi
      return ;;
  esac
  EXPORT_KIND=foreign
}
export_plan() { # ROOT LESSON...: fill EXPORT_SOURCE, EXPORT_SHIP and EXPORT_FOREIGN
  local root=$1 path
  shift
  EXPORT_SHIP=() EXPORT_FOREIGN=()
  local -a files=()
  if [ -z "$(git -C "$root" rev-parse --show-prefix 2>/dev/null)" ] && git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
    EXPORT_SOURCE=git
    mapfile -t files < <(git -C "$root" -c core.quotePath=false ls-files)
  else
    EXPORT_SOURCE=files
    build_folder_prunes "$root"
    mapfile -t files < <(cd "$root" && find . -mindepth 1 \( -name .git -o -path './build*' \
      "${WB_BUILD_PRUNES[@]}" \) -prune -o ! -type d -print | sed 's|^\./||')
  fi
  for path in "${files[@]}"; do
    [ -e "$root/$path" ] || [ -L "$root/$path" ] || continue # in the index, deleted here
    export_kind "$path" "$@"
    case $EXPORT_KIND in
      ship) EXPORT_SHIP+=("$path") ;;
      foreign) [ "$EXPORT_SOURCE" = git ] || EXPORT_FOREIGN+=("$path") ;;
    esac
  done
}
# Every file of BUNDLE is one the plan ships, or one export writes itself: say any other.
bundle_extra_files() { # BUNDLE
  local path extra=0
  local -A planned=()
  for path in "${EXPORT_SHIP[@]}"; do planned[$path]=1; done
  while IFS= read -r path; do
    path=${path#./}
    case $path in README.md | CMakePresets.json | .workbook/shipped/*) continue ;; esac
    [ -n "${planned[$path]:-}" ] && continue
    echo "$path: in the bundle, but not a course file"
    extra=$((extra + 1))
  done < <(cd "$1" && find . ! -type d)
  [ $extra -eq 0 ]
}
# "SHA256 NN-slug" for each solution of ROOT, by one sha256sum (not one, and a cut, per solution).
solution_sums() { # ROOT
  local solution sum i=0
  local -a files=() lessons=()
  for solution in "$1"/solutions/*/solution.c "$1"/solutions/*/solution.cu; do
    [ -f "$solution" ] || continue
    files+=("$solution")
    solution=${solution%/*}
    lessons+=("${solution##*/}")
  done
  [ ${#files[@]} -gt 0 ] || return 0
  # (a name with a backslash or a newline: sha256sum starts its line with a backslash)
  while read -r sum _; do
    printf '%s %s\n' "${sum#\\}" "${lessons[i]}"
    i=$((i + 1))
  done < <(sha256sum -- "${files[@]}")
}
# A file outside the course, named for the instructor: a copy of a solution says so.
describe_foreign() { # ROOT PATH...
  local root=$1 path sum lesson
  shift
  local -A solution_of=()
  while read -r sum lesson; do solution_of[$sum]=$lesson; done < <(solution_sums "$root")
  for path in "$@"; do
    sum=$(sha256sum <"$root/$path" 2>/dev/null | cut -d' ' -f1)
    lesson=${solution_of[$sum]:-}
    if [ -n "$lesson" ]; then echo "$path: a copy of lesson ${lesson%%-*}'s solution"
    else echo "$path: not a course file (a submission, a gradebook, a grading file?): move it out of the tree, or export from a git clone"
    fi
  done | head -n 20
  [ $# -le 20 ] || echo "... and $(($# - 20)) more files that are not the course's"
}
# What would give answers away in a bundle: a copy of a solution file (under any name), an
# exercise whose task regions are not the shipped ones (their fingerprints, kept in the project
# by shared/workbook/task-checksums.sh, so an answer is found whatever its text), or an exercise
# that passes its check (bundle_exercises_pass). Lesson text that shows a line of code on purpose
# is the lesson authors' choice, not a leak.
# shellcheck source=task-checksums.sh
source "$WB_ROOT/shared/workbook/task-checksums.sh"
scan_for_leaks() { # BUNDLE: print one line per copied solution; status 1 when there is any
  local bundle=$1 sum file lesson leaks=0
  local -A solution_of=() # checksum -> NN-slug
  while read -r sum lesson; do solution_of[$sum]=$lesson; done < <(solution_sums "$WB_ROOT")
  # (.workbook/shipped/ holds copies of the bundle's exercises, which are looked at themselves.)
  while read -r sum file; do
    lesson=${solution_of[$sum]:-}
    [ -n "$lesson" ] || continue
    file=${file#"$bundle"/}
    case $file in
      .workbook/shipped/*) continue ;;
      lessons/"$lesson"/exercise.c*) echo "lesson ${lesson%%-*}: its exercise is a copy of its solution" ;;
      *) echo "$file: a copy of lesson ${lesson%%-*}'s solution" ;;
    esac
    leaks=$((leaks + 1))
  done < <(find "$bundle" -type f -exec sha256sum {} +)
  if [ -d "$bundle/solutions" ]; then echo "solutions/: present"; leaks=$((leaks + 1)); fi
  [ $leaks -eq 0 ]
}
# Every exercise of the bundle must fail its check, as shipped: build the bundle (only these
# lessons, on the simulator or the CPU, which need nothing NVIDIA) and run the learner's tests.
# An exercise that passes holds an answer; one that cannot be built cannot be vouched for.
# The build is the bundle's own build/ (removed afterwards), where a learner's ./workbook makes it:
# the same place relative to the sources as every learner's build, so a compiler cache shared with
# other builds (CI's ccache) finds what they compiled. Its logs go to LOGS/build.log and
# LOGS/check.log (LOGS: a folder of its own, made with mktemp -d; removed unless the build log
# is named, when a lesson does not build).
# It uses the learner's generator (choose_generator: Ninja where installed, so the compiles are
# the learner build's own, for ccache too; under Make half its CPU was Make's `cmake -E` steps).
# This build is read by no person, only its log: under Make its rule messages and colours are off
# (a cmake process for each, about a tenth of its CPU). The precompiled prelude (CUSIM_PRELUDE_PCH,
# shared/sim/cusim.cmake) costs about 1 CPU-s to make and saves about 0.17 s in each .cu compile: it
# is made only where at least 6 exercises are .cu (the program is the same either way).
bundle_exercises_pass() { # BUNDLE LOGS LESSON...: one line per lesson that passes or is unchecked
  local bundle=$1 logs=$2 build=$1/build lesson backend targets=() problems=0 wanted unbuilt=no cu=0
  local -a generator
  choose_generator
  shift 2
  wanted=$(lesson_numbers "$@")
  for lesson in "$@"; do
    backend=sim
    [ -f "$bundle/lessons/$lesson/exercise.c" ] && backend=cpu
    [ $backend = cpu ] || cu=$((cu + 1))
    targets+=("$lesson.exercise.$backend")
  done
  (cd "$bundle" && cmake --preset default "${generator[@]}" -B "$build" -DCMAKE_RULE_MESSAGES=OFF -DCMAKE_COLOR_MAKEFILE=OFF \
    "-DCUSIM_PRELUDE_PCH=$([ $cu -ge 6 ] && echo ON || echo OFF)" "${EXTRA_CMAKE_ARGS[@]}" -DWB_TESTS=learner \
    -DBUILD_TESTING=ON -DWB_SIM=ON -DWB_CUDA=OFF "-DWB_LESSONS=${wanted// /;}") >"$logs/build.log" 2>&1 ||
    { echo "the bundle does not configure (log: $logs/build.log)"; return 1; }
  if ! cmake --build "$build" -j "$JOBS" --target "${targets[@]}" >>"$logs/build.log" 2>&1; then
    for lesson in "${targets[@]}"; do # one by one: which of them do build
      [ -x "$build/bin/$lesson" ] || cmake --build "$build" -j "$JOBS" --target "$lesson" >>"$logs/build.log" 2>&1
    done
  fi
  ctest --test-dir "$build" -j "$JOBS" -R "^($(printf '%s|' "${targets[@]//./\\.}" | sed 's/|$//'))\$" \
    >"$logs/check.log" 2>&1
  for lesson in "${targets[@]}"; do
    if [ ! -x "$build/bin/$lesson" ]; then
      echo "lesson ${lesson%%-*}: its exercise does not build in the bundle"
      problems=$((problems + 1)) unbuilt=yes
    elif grep -q -E "Test +#[0-9]+: ${lesson//./\\.} \.+ +Passed" "$logs/check.log"; then
      echo "lesson ${lesson%%-*}: its exercise passes its check: an answer is in it"
      problems=$((problems + 1))
    fi
  done
  if [ $unbuilt = no ]; then rm -rf "$logs"; else echo "(build log: $logs/build.log)"; fi
  rm -rf "$build"
  [ $problems -eq 0 ]
}
# The bundle's README: what the student runs, each command working in the bundle (the test
# unit.workbook.export runs them there), and the lessons it holds.
bundle_readme() { # LESSON...
  local first=${1%%-*} lesson row
  cat <<EOF
# The CUDA C workbook: lessons $(lesson_numbers "$@" | sed 's/ /, /g')

Each lesson is a small program with a few marked tasks for you to complete; the
workbook builds it, runs it, and checks its results against the same
computation done on the CPU. No GPU? Every lesson also runs on the workbook's
CPU simulator, and the output says which one checked your work.

You need CMake 3.25 or newer, a C11/C++17 compiler (gcc or clang), Bash, and
Ninja or Make. The CUDA Toolkit and an NVIDIA GPU are optional.

## Your commands

\`\`\`
./workbook                # build, check every exercise, show what is next
./workbook check $first       # check lesson $first's exercise; on failure, a hint
ctest --test-dir build -L lesson$first --output-on-failure
./workbook hint $first        # the next hint for lesson $first
./workbook run $first         # run lesson $first's program and read its figures
./workbook report         # write build/workbook-report.txt to hand in
./workbook reset $first       # start lesson $first again (yours is kept as a backup)
\`\`\`

The third is the same check by CTest, in the \`build/\` folder that \`./workbook\`
makes the first time.

## Working through a lesson

1. Read \`lessons/NN-slug/README.md\`.
2. Open \`lessons/NN-slug/exercise.cu\` (or \`exercise.c\`) and do the tasks
   between the markers \`// ---- task N ...\` and \`// ---- end of task N\`.
   Change nothing else: only the task regions are graded.
3. Check with \`./workbook check NN\`; stuck, \`./workbook hint NN\`.

| lesson | what it teaches |
| --- | --- |
EOF
  for lesson in "$@"; do
    row=$(grep -F "| $lesson |" "$WB_ROOT/README.md" | head -n 1)
    [ -n "$row" ] || row="| $lesson | $(lesson_title "$lesson") |"
    echo "$row"
  done
  cat <<EOF

More: \`docs/getting-started.md\` (setting up, laptops without a GPU) and
\`docs/troubleshooting.md\` (drivers, CUDA errors and what they mean).
EOF
  if [ -f "$WB_ROOT/docs/zh-CN/getting-started.md" ]; then
    cat <<EOF

中文：\`docs/zh-CN/getting-started.md\`（入门）、\`docs/zh-CN/troubleshooting.md\`（故障排除）、
\`docs/zh-CN/glossary.md\`（术语表）；有中文版的课程旁边有 \`README.zh-CN.md\` 和
\`hints.zh-CN.md\`。提示用中文显示：\`WORKBOOK_LANG=zh-CN ./workbook hint NN\`。
EOF
  fi
}
# The bundle's CMakePresets.json: the learner's presets only (the project's ci and sanitizer
# presets need its tests and solutions, which do not ship).
bundle_presets() {
  cat <<'EOF'
{
  "version": 6,
  "cmakeMinimumRequired": { "major": 3, "minor": 25, "patch": 0 },
  "configurePresets": [
    {
      "name": "default",
      "displayName": "Learner: build every lesson, check the exercises",
      "binaryDir": "${sourceDir}/build",
      "cacheVariables": { "WB_TESTS": "learner", "CMAKE_BUILD_TYPE": "Release" }
    }
  ],
  "buildPresets": [{ "name": "default", "configurePreset": "default" }],
  "testPresets": [
    {
      "name": "default",
      "configurePreset": "default",
      "output": { "outputOnFailure": true, "outputJUnitFile": "junit.xml" },
      "execution": { "noTestsAction": "error", "jobs": 2 }
    }
  ],
  "workflowPresets": [
    {
      "name": "default",
      "steps": [
        { "type": "configure", "name": "default" },
        { "type": "build", "name": "default" },
        { "type": "test", "name": "default" }
      ]
    }
  ]
}
EOF
}
cmd_export() {
  local dir='' verify=no only='' created=no
  while [ $# -gt 0 ]; do
    case $1 in
      -h | --help) help_export; return 0 ;;
      --verify) verify=yes ;;
      --lessons) [ $# -ge 2 ] || usage_error "export: --lessons needs a list like 01,02"; only=$2; shift ;;
      -*) usage_error "export: unknown option '$1'" ;;
      *) [ -z "$dir" ] || usage_error "export: one folder"; dir=$1 ;;
    esac
    shift
  done
  [ -n "$dir" ] || usage_error "export: where to? e.g. $WB_NAME export ../cuda-workbook-students"
  # The lessons to export: --lessons, else all of them.
  local lessons=() lesson
  if [ -n "$only" ]; then
    mapfile -t lessons < <(parse_lessons "$only" export)
    [ ${#lessons[@]} -gt 0 ] && [ -n "${lessons[0]}" ] || exit 2
  else
    lessons=("${ALL_LESSONS[@]}")
  fi
  [ ${#lessons[@]} -gt 0 ] || usage_error "export: there is no lesson to export"
  [ -e "$dir" ] || created=yes
  mkdir -p "$dir" || fatal "cannot create $dir"
  dir=$(cd "$dir" && pwd)
  [ -z "$(ls -A "$dir")" ] || usage_error "export: $dir is not empty; give a new or empty folder"
  case $dir/ in "$WB_ROOT"/*) rmdir "$dir" 2>/dev/null; usage_error "export: $dir is inside the workbook; choose a folder outside it" ;; esac
  say "Exporting a student bundle to $dir ..."
  say "Lessons: $(lesson_numbers "${lessons[@]}")"
  wb_lock # the snapshots and copies of the shipped exercises live in the build folder
  snapshot_exercises
  # The course and nothing else: the files export_plan ships (git's index, where there is one).
  export_plan "$WB_ROOT" "${lessons[@]}"
  [ ${#EXPORT_SHIP[@]} -eq 0 ] ||
    (cd "$WB_ROOT" && printf '%s\0' "${EXPORT_SHIP[@]}" | xargs -0 -r cp -a --parents -t "$dir")
  bundle_readme "${lessons[@]}" >"$dir/README.md"
  bundle_presets >"$dir/CMakePresets.json"
  # Every exercise as shipped (an instructor may have solved some in this tree), and a snapshot
  # of them for `reset` in the bundle.
  local file shipped name
  for lesson in "${lessons[@]}"; do
    file=$(exercise_file "$lesson")
    name=${file##*/}
    shipped=$(shipped_exercise "$lesson")
    if [ -n "$shipped" ] && ! cmp -s "$shipped" "$file"; then
      cp "$shipped" "$dir/lessons/$lesson/$name"
      warn "  lesson ${lesson%%-*}: your $name is edited; the bundle has the shipped one"
    fi
    mkdir -p "$dir/.workbook/shipped/$lesson"
    cp "$dir/lessons/$lesson/$name" "$dir/.workbook/shipped/$lesson/$name"
  done
  wb_unlock
  # No answer may ship: the exercises' task regions are the shipped ones, no solution is copied,
  # and every exercise fails its check in the bundle. A refused bundle is removed, so nothing
  # half-checked is left to hand out.
  local check_logs problems=0 regions_ok=yes
  say "Checking the bundle for answers (task regions, solution files)..."
  compare_with_shipped_tasks "$dir" "$WB_ROOT/$WB_TASK_SUMS_LIST" "${lessons[@]}" || problems=1 regions_ok=no
  scan_for_leaks "$dir" || problems=1
  if [ ${#EXPORT_FOREIGN[@]} -gt 0 ]; then
    describe_foreign "$WB_ROOT" "${EXPORT_FOREIGN[@]}"
    problems=1
  fi
  bundle_extra_files "$dir" || problems=1
  check_logs=$(mktemp -d "${TMPDIR:-/tmp}/workbook-export-check.XXXXXX") || fatal "cannot create a temporary folder"
  say "Checking that each exercise fails its check (building $(counted "${#lessons[@]}" lesson))..."
  bundle_exercises_pass "$dir" "$check_logs" "${lessons[@]}" || problems=1
  if [ $problems -ne 0 ]; then
    rm -rf "${dir:?}"/* "${dir:?}"/.[!.]* 2>/dev/null
    [ $created = yes ] && rmdir "$dir" 2>/dev/null
    rm -f "$check_logs/check.log" # a build log named above stays (else the folder is gone)
    [ $regions_ok = yes ] ||
      say "Changed an exercise on purpose? bash shared/workbook/task-checksums.sh --write"
    bad "Export refused: answers would ship, or files that are not the course (listed above); the bundle was removed."
    return 1
  fi
  rm -rf "$check_logs"
  good "No answers in the bundle: task regions as shipped, every check fails; only course files ($([ "$EXPORT_SOURCE" = git ] && echo "git's index" || echo "the tree's files"))."
  if [ $verify = yes ]; then
    # In the bundle's build/ as a learner's would be (then removed); the log in a temporary file.
    local verify_build=$dir/build verify_log
    local -a generator
    choose_generator
    verify_log=$(mktemp "${TMPDIR:-/tmp}/workbook-export-verify.XXXXXX") || fatal "cannot create a temporary file"
    say "Verifying: configuring and building the bundle in $verify_build ..."
    if (cd "$dir" && cmake --preset default "${generator[@]}" -B "$verify_build" "${EXTRA_CMAKE_ARGS[@]}" && cmake --build "$verify_build" -j "$JOBS") >"$verify_log" 2>&1; then
      rm -rf "$verify_build" "$verify_log"
      good "The bundle configures and builds without solutions/."
    else
      rm -rf "$verify_build"
      tail -n 30 "$verify_log"
      bad "The bundle does not build (log: $verify_log)."
      return 1
    fi
  fi
  say "Hand out $dir (learners start with: ./workbook)."
}

