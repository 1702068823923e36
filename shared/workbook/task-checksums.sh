#!/usr/bin/env bash
# task-checksums.sh [--write | --check] [ROOT]
#
# Fingerprints of the exercises as shipped, kept in shared/workbook/shipped-tasks.sha256: one
# line per task region of each lessons/NN-slug/exercise.c[u] (its start marker and body, as
# bytes), and one for the rest of the file ("outside"). `workbook export` compares the bundle's
# exercises with it, so an answer committed into an exercise is caught even when the solution's
# text differs from it.
#   (no option)  print the fingerprints of ROOT's exercises (ROOT: this workbook by default)
#   --write      regenerate the list (after changing an exercise on purpose)
#   --check      compare ROOT's exercises with the list: one line per difference, exit 1
# Sourced, it defines only the functions (task_fingerprints, compare_with_shipped_tasks).
set -u
# The marker lines: the one definition (shared/cmake/skeleton-guard.sh, regions_read).
# shellcheck source=../cmake/skeleton-guard.sh
source "$(dirname "${BASH_SOURCE[0]}")/../cmake/skeleton-guard.sh"

WB_TASK_SUMS_LIST=shared/workbook/shipped-tasks.sha256

# Fingerprints of one exercise: "SHA256 NN-slug/NAME task N" lines, then "... outside".
task_fingerprints() { # ROOT NN-slug/NAME
  local file=$1/lessons/$2 region sum
  # Each region (and the outside) becomes one record of the awk output, separated by NUL.
  while IFS= read -r -d '' region; do
    sum=$(printf '%s' "${region#*$'\n'}" | sha256sum | cut -d' ' -f1)
    printf '%s  %s %s\n' "$sum" "$2" "${region%%$'\n'*}"
  done < <(awk -v start_re="$WB_TASK_START_RE" -v end_re="$WB_TASK_END_RE" '
    $0 ~ start_re {
      match($0, /task [0-9]+/); task = substr($0, RSTART, RLENGTH); inside = 1
      body = $0 "\n"; outside = outside "<" task ">\n"; next }
    $0 ~ end_re {
      if (inside) printf "%s\n%s%c", task, body, 0; inside = 0; outside = outside $0 "\n"; next }
    inside { body = body $0 "\n"; next }
    { outside = outside $0 "\n" }
    END { if (inside) printf "%s\n%s%c", task, body, 0; printf "outside\n%s%c", outside, 0 }' "$file")
}
# Every exercise of ROOT, in lesson order.
all_task_fingerprints() { # ROOT [NN-slug...]: all lessons when none are named
  local root=$1 dir lesson name
  shift
  if [ $# -eq 0 ]; then
    for dir in "$root"/lessons/[0-9][0-9]-*/; do [ -f "$dir/CMakeLists.txt" ] && set -- "$@" "$(basename "$dir")"; done
  fi
  for lesson in "$@"; do
    name=exercise.cu
    [ -f "$root/lessons/$lesson/exercise.c" ] && name=exercise.c
    [ -f "$root/lessons/$lesson/$name" ] || { echo "missing  $lesson/$name outside"; continue; }
    task_fingerprints "$root" "$lesson/$name"
  done
}
# Compare the named lessons of ROOT with the list LIST: one line per region that differs, is
# missing or is new, or per lesson the list does not know; status 1 when there is any.
compare_with_shipped_tasks() { # ROOT LIST NN-slug...
  local root=$1 list=$2 sum what lesson where problems=0 differ
  shift 2
  local -A shipped=() seen=() known=()
  while read -r sum what; do
    [ -n "$what" ] && [ "${sum#\#}" = "$sum" ] || continue
    shipped[$what]=$sum
    known[${what%%/*}]=1
  done <"$list"
  for lesson in "$@"; do
    if [ -z "${known[$lesson]:-}" ]; then
      echo "lesson ${lesson%%-*}: no fingerprints in $WB_TASK_SUMS_LIST"
      problems=$((problems + 1))
      continue
    fi
    differ=()
    while read -r sum what; do
      seen[$what]=1
      where=${what#*/}
      where=${where#* }
      [ "${shipped[$what]:-}" = "$sum" ] && continue
      if [ "$where" = outside ]; then
        echo "lesson ${lesson%%-*}: changed outside the task regions of the shipped exercise"
      elif [ -z "${shipped[$what]:-}" ]; then
        echo "lesson ${lesson%%-*}, $where is not in the shipped exercise"
      else
        differ+=("${where#task }")
        continue
      fi
      problems=$((problems + 1))
    done < <(all_task_fingerprints "$root" "$lesson")
    # The task regions that differ, one line for the lesson.
    if [ ${#differ[@]} -eq 1 ]; then
      echo "lesson ${lesson%%-*}, task ${differ[0]} differs from the shipped exercise: is an answer in it?"
    elif [ ${#differ[@]} -gt 1 ]; then
      where="${differ[*]:0:${#differ[@]}-1}"
      echo "lesson ${lesson%%-*}, tasks ${where// /, } and ${differ[-1]} are not as shipped: are answers in them?"
    fi
    problems=$((problems + ${#differ[@]}))
    for what in "${!shipped[@]}"; do
      [ "${what%%/*}" = "$lesson" ] && [ -z "${seen[$what]:-}" ] || continue
      echo "lesson ${lesson%%-*}, ${what#* } of the shipped exercise is missing"
      problems=$((problems + 1))
    done
  done
  [ $problems -eq 0 ]
}

(return 0 2>/dev/null) && return 0

mode=print
case ${1:-} in --write | --check) mode=${1#--}; shift ;; -h | --help) sed -n '2,13s/^# \{0,1\}//p' "$0"; exit 0 ;; -*) echo "task-checksums: unknown option '$1'" >&2; exit 2 ;; esac
[ $# -le 1 ] || { echo "task-checksums: one ROOT at most" >&2; exit 2; }
root=$(cd "${1:-$(dirname "${BASH_SOURCE[0]}")/../..}" && pwd) || exit 2
[ -d "$root/lessons" ] || { echo "task-checksums: $root has no lessons/ folder" >&2; exit 2; }
case $mode in
  print) all_task_fingerprints "$root" ;;
  write)
    tmp=$(mktemp "$root/$WB_TASK_SUMS_LIST.XXXXXX") && chmod 644 "$tmp" || exit 3
    { echo "# Fingerprints of the shipped exercises: bash shared/workbook/task-checksums.sh --write"
      all_task_fingerprints "$root"; } >"$tmp" || { rm -f "$tmp"; exit 3; }
    mv "$tmp" "$root/$WB_TASK_SUMS_LIST" || { rm -f "$tmp"; exit 3; }
    echo "task-checksums: wrote $WB_TASK_SUMS_LIST ($(grep -c -v '^#' "$root/$WB_TASK_SUMS_LIST") fingerprints)" ;;
  check)
    [ -f "$root/$WB_TASK_SUMS_LIST" ] || { echo "task-checksums: $WB_TASK_SUMS_LIST is missing" ; exit 1; }
    lessons=()
    for dir in "$root"/lessons/[0-9][0-9]-*/; do [ -f "$dir/CMakeLists.txt" ] && lessons+=("$(basename "$dir")"); done
    if compare_with_shipped_tasks "$root" "$root/$WB_TASK_SUMS_LIST" "${lessons[@]}"; then
      echo "task-checksums: OK (${#lessons[@]} exercises match $WB_TASK_SUMS_LIST)"
    else
      echo "changed on purpose? then: bash shared/workbook/task-checksums.sh --write"
      exit 1
    fi ;;
esac
