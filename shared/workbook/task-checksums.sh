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

# Fingerprints of exercises: "SHA256 NN-slug/NAME task N" lines, then "... outside", for each
# exercise in the order given. One awk writes each region (and each file's outside) to a file of
# its own, one sha256sum hashes them all: a sha256sum per region (and its subshell and cut) was
# about 250 processes for the whole workbook, in every export.
task_fingerprints() { # ROOT NN-slug/NAME...
  local root=$1 tmp i count sum
  shift
  [ $# -gt 0 ] || return 0
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/workbook-tasks.XXXXXX") || return 1
  local -a labels=() names=()
  # Each region's body (its start marker and lines, as bytes) goes to tmp/N, its label to labels.
  (cd "$root/lessons" && awk -v start_re="$WB_TASK_START_RE" -v end_re="$WB_TASK_END_RE" -v tmp="$tmp" '
    function emit(label, text) { f = tmp "/" (++n); printf "%s", text > f; close(f); print label > (tmp "/labels") }
    function done_file() { if (inside) emit(name " " task, body); emit(name " outside", outside) }
    FNR == 1 { if (NR > 1) done_file(); name = FILENAME; inside = 0; outside = "" }
    $0 ~ start_re {
      match($0, /task [0-9]+/); task = substr($0, RSTART, RLENGTH); inside = 1
      body = $0 "\n"; outside = outside "<" task ">\n"; next }
    $0 ~ end_re {
      if (inside) emit(name " " task, body); inside = 0; outside = outside $0 "\n"; next }
    inside { body = body $0 "\n"; next }
    { outside = outside $0 "\n" }
    END { if (NR > 0) done_file(); close(tmp "/labels") }' "$@") || { rm -rf "$tmp"; return 1; }
  [ -f "$tmp/labels" ] && mapfile -t labels <"$tmp/labels"
  count=${#labels[@]}
  for ((i = 1; i <= count; i++)); do names+=("$i"); done
  i=0
  if [ "$count" -gt 0 ]; then
    while read -r sum _; do
      printf '%s  %s\n' "$sum" "${labels[i]}"
      i=$((i + 1))
    done < <(cd "$tmp" && sha256sum -- "${names[@]}")
  fi
  rm -rf "$tmp"
}
# Every exercise of ROOT, in lesson order.
all_task_fingerprints() { # ROOT [NN-slug...]: all lessons when none are named
  local root=$1 dir lesson name
  local -a files=()
  shift
  if [ $# -eq 0 ]; then
    for dir in "$root"/lessons/[0-9][0-9]-*/; do
      dir=${dir%/}
      [ -f "$dir/CMakeLists.txt" ] && set -- "$@" "${dir##*/}"
    done
  fi
  for lesson in "$@"; do
    name=exercise.cu
    [ -f "$root/lessons/$lesson/exercise.c" ] && name=exercise.c
    if [ -s "$root/lessons/$lesson/$name" ]; then files+=("$lesson/$name"); continue; fi
    # Missing, or empty (awk sees no line of it): said here, in order.
    task_fingerprints "$root" "${files[@]}"
    files=()
    if [ -f "$root/lessons/$lesson/$name" ]; then # the SHA-256 of no bytes
      echo "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  $lesson/$name outside"
    else
      echo "missing  $lesson/$name outside"
    fi
  done
  task_fingerprints "$root" "${files[@]}"
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
