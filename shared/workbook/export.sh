# shellcheck shell=bash
# export.sh: `workbook export`, the instructor's student bundle (sourced by workbook, not run).
# Uses the workbook's helpers (say, warn, usage_error, shipped_exercise, ...) and its settings.

# --- export DIR --------------------------------------------------------------------------------
help_export() {
  cat <<EOF
Usage: $WB_NAME export DIR [--verify]

Writes a student bundle to DIR (new or empty, outside this tree): everything but solutions/,
build folders, .git and reset backups, with every exercise as shipped, plus a snapshot of the
shipped exercises (.workbook/shipped/) so that reset works in the bundle. Then scans the bundle
for solution text (each solution's task-region contents) and fails if any is found.
--verify also configures and builds the bundle in a temporary folder (WORKBOOK_CMAKE_ARGS apply).
EOF
}
# Copy a source tree without .git, build folders (top-level build* or any folder holding a
# CMakeCache.txt) and reset backups; extra find tests name more paths to leave out.
copy_tree() { # SRC DST [FIND-PRUNE-TESTS...]
  local src=$1 dst=$2
  shift 2
  mkdir -p "$dst"
  (cd "$src" && find . -mindepth 1 \( -name .git -o -path './build*' -o -name '*.bak' "$@" \
      -o \( -type d -exec test -f '{}/CMakeCache.txt' \; \) \) -prune -o ! -type d -print0 |
    xargs -0 -r cp -a --parents -t "$dst")
}
# Task regions of a lesson file as "N<TAB>body" lines: the body's lines trimmed, blank lines
# dropped, joined by a unit separator, so layout changes do not hide a copied answer.
task_regions() { # FILE
  awk '
    /^[ \t]*(\/\/|\/\*) ---- end of task [0-9]+/ { if (inside) print task "\t" body; inside = 0; next }
    /^[ \t]*(\/\/|\/\*) ---- task [0-9]+/ {
      match($0, /task [0-9]+/); task = substr($0, RSTART + 5, RLENGTH - 5); inside = 1; body = ""; next }
    inside { gsub(/^[ \t]+|[ \t]+$/, ""); if ($0 != "") body = body (body == "" ? "" : "\037") $0 }' "$1"
}
# What would give answers away in a bundle: a copy of a solution file (under any name), or an
# exercise whose task region holds its solution's answer. (Lesson text that shows a line of code on
# purpose is the lesson authors' choice, not a leak of the solutions/ folder.)
scan_for_leaks() { # BUNDLE: print one line per leak; status 1 when there is any
  local bundle=$1 solution lesson exercise task body leaks=0
  local -A solution_sums=() answer=()
  for solution in "$WB_ROOT"/solutions/*/solution.c "$WB_ROOT"/solutions/*/solution.cu; do
    [ -f "$solution" ] || continue
    solution_sums[$(sha256sum <"$solution" | cut -d' ' -f1)]=${solution#"$WB_ROOT"/}
    lesson=${solution%/*}
    lesson=${lesson##*/}
    exercise=$bundle/lessons/$lesson/exercise.${solution##*.}
    [ -f "$exercise" ] || continue
    answer=()
    while IFS=$'\t' read -r task body; do answer[$task]=$body; done < <(task_regions "$solution")
    while IFS=$'\t' read -r task body; do
      if [ -n "${answer[$task]:-}" ] && [ "$body" = "${answer[$task]}" ]; then
        echo "lessons/$lesson/${exercise##*/}: task $task holds the solution's answer"
        leaks=$((leaks + 1))
      fi
    done < <(task_regions "$exercise")
  done
  while read -r sum file; do
    if [ -n "${solution_sums[$sum]:-}" ]; then
      echo "${file#"$bundle"/}: is a copy of ${solution_sums[$sum]}"
      leaks=$((leaks + 1))
    fi
  done < <(find "$bundle" -type f -exec sha256sum {} +)
  if [ -d "$bundle/solutions" ]; then echo "solutions/: present"; leaks=$((leaks + 1)); fi
  [ $leaks -eq 0 ]
}
cmd_export() {
  local dir='' verify=no
  while [ $# -gt 0 ]; do
    case $1 in -h | --help) help_export; return 0 ;; --verify) verify=yes ;; -*) usage_error "export: unknown option '$1'" ;; *) [ -z "$dir" ] || usage_error "export: one folder"; dir=$1 ;; esac
    shift
  done
  [ -n "$dir" ] || usage_error "export: where to? e.g. $WB_NAME export ../cuda-workbook-students"
  mkdir -p "$dir" || fatal "cannot create $dir"
  dir=$(cd "$dir" && pwd)
  [ -z "$(ls -A "$dir")" ] || usage_error "export: $dir is not empty; give a new or empty folder"
  case $dir/ in "$WB_ROOT"/*) rmdir "$dir" 2>/dev/null; usage_error "export: $dir is inside the workbook; choose a folder outside it" ;; esac
  say "Exporting a student bundle to $dir ..."
  snapshot_exercises
  copy_tree "$WB_ROOT" "$dir" -o -path ./solutions -o -path ./.workbook
  # Every exercise as shipped (an instructor may have solved some in this tree), and a snapshot
  # of them for `reset` in the bundle.
  local lesson file shipped name
  for lesson in "${ALL_LESSONS[@]}"; do
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
  say "Scanning the bundle for solution text..."
  if ! scan_for_leaks "$dir"; then
    bad "The bundle in $dir contains solution text (listed above): remove it before handing the bundle out."
    return 1
  fi
  good "No solution text in the bundle ($(find "$dir" -type f | wc -l) files)."
  if [ $verify = yes ]; then
    local verify_build
    verify_build=$(mktemp -d)
    say "Verifying: configuring and building the bundle in $verify_build ..."
    if (cd "$dir" && cmake --preset default -B "$verify_build" "${EXTRA_CMAKE_ARGS[@]}" && cmake --build "$verify_build" -j "$JOBS") >"$verify_build.log" 2>&1; then
      good "The bundle configures and builds without solutions/."
      rm -rf "$verify_build" "$verify_build.log"
    else
      tail -n 30 "$verify_build.log"
      bad "The bundle does not build (log: $verify_build.log)."
      return 1
    fi
  fi
  say "Hand out $dir (learners start with: ./workbook)."
}

