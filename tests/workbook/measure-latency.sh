#!/usr/bin/env bash
# measure-latency.sh [--runs N] [--lessons "NN NN ..."] [--sanitizers NN] [--keep] [--cmake-args "ARGS"]
#
# How long a learner waits (issue 26), measured on a fresh copy of this tree, printed as a
# markdown table to paste into docs/results.md with the date, the machine and its load average:
#   1. the first `./workbook`: total time, when the progress table appeared, and the longest
#      silence between two lines (progress is asked for every second, as a terminal shows it:
#      WORKBOOK_PROGRESS=lines, WORKBOOK_PROGRESS_SECONDS=1);
#   2. for each lesson, `./workbook check NN` after a one-line edit of its exercise (a new
#      comment line each time, so the build and nvcc's verdict are redone, nvcc included where
#      the toolkit is): the median of N runs, and the slowest;
#   3. for each lesson, `./workbook run NN -- --n 1000` on the built tree right after its check:
#      the time to the workbook's first line and to the program's first line.
# Run it on an idle machine (it says the load average before and after; a loaded machine's
# figures are not comparable). It builds every lesson once, so it takes a while: --lessons
# narrows it. It is not a test: it asserts nothing and is not registered with CTest.
#   --runs N          checks per lesson for the median (default 5)
#   --lessons "..."   the lessons to time (default: all; "none": only the first ./workbook)
#   --cmake-args ".." WORKBOOK_CMAKE_ARGS for the copy (default: none, the learner's own build)
#   --keep            keep the copy (its path is printed)
#   --sanitizers NN   also time the first `check NN --race` and `check NN --asan` (each builds its
#                     sanitizer simulator first): total and the longest silence
set -u -o pipefail

runs=5 lessons='' keep=0 cmake_args='' sanitizer_lesson=''
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=${2:?--runs N}; shift ;;
    --lessons) lessons=${2:?--lessons \"NN NN\"}; shift ;;
    --cmake-args) cmake_args=${2?--cmake-args ARGS}; shift ;;
    --keep) keep=1 ;;
    --sanitizers) sanitizer_lesson=${2:?--sanitizers NN}; shift ;;
    -h | --help) sed -n '2,25s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "measure-latency: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "measure-latency: --runs takes a count, not '$runs'" >&2; exit 2; }
[ -n "${EPOCHREALTIME:-}" ] || { echo "measure-latency: needs bash 5 (EPOCHREALTIME)" >&2; exit 2; }
[ -z "$sanitizer_lesson" ] || [[ $sanitizer_lesson =~ ^[0-9][0-9]$ ]] ||
  { echo "measure-latency: --sanitizers takes a lesson number NN, not '$sanitizer_lesson'" >&2; exit 2; }

source_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/workbook-latency.XXXXXX")
if [ $keep = 1 ]; then echo "measure-latency: the copy is in $scratch/tree" >&2; else trap 'rm -rf "$scratch"' EXIT; fi
tree=$scratch/tree
mkdir -p "$tree"
# A copy without .git and build folders: what a learner gets from a download.
(cd "$source_root" && find . -mindepth 1 \( -name .git -o -path './build*' -o -path ./.workbook \
    -o \( -type d -exec test -f '{}/CMakeCache.txt' \; \) \) -prune -o ! -type d -print0 |
  xargs -0 -r cp -a --parents -t "$tree")

export WORKBOOK_PROGRESS=lines WORKBOOK_PROGRESS_SECONDS=1 NO_COLOR=1 WORKBOOK_CMAKE_ARGS=$cmake_args
unset WORKBOOK_BUILD_DIR WORKBOOK_BACKEND

ms() { # START END (EPOCHREALTIME values) -> milliseconds
  local a=${1/./} b=${2/./}
  echo $(((10#$b - 10#$a) / 1000))
}
secs() { printf '%d.%01d' $(($1 / 1000)) $((($1 % 1000) / 100)); } # MS -> S.D
gap_secs() { printf '%d.%02d' $(($1 / 1000)) $((($1 % 1000) / 10)); } # MS -> S.DD (a silence: to the hundredth)
# timed OUT PATTERN COMMAND...: runs it, its lines to OUT; sets T_TOTAL, T_FIRST (first line),
# T_MATCH (first line matching PATTERN, or -1), T_AFTER (the first unindented line after that
# one: a program's first line after "Running the ...", which may wrap), T_GAP (longest silence),
# in ms.
timed() {
  local out=$1 pattern=$2 start last now line gap
  shift 2
  T_FIRST=-1 T_MATCH=-1 T_AFTER=-1 T_GAP=0
  start=$EPOCHREALTIME
  last=$start
  while IFS= read -r line; do
    now=$EPOCHREALTIME
    printf '%s\n' "$line" >>"$out"
    [ "$T_FIRST" -ge 0 ] || T_FIRST=$(ms "$start" "$now")
    if [ "$T_MATCH" -lt 0 ] && [ -n "$pattern" ] && [[ $line =~ $pattern ]]; then
      T_MATCH=$(ms "$start" "$now")
    elif [ "$T_MATCH" -ge 0 ] && [ "$T_AFTER" -lt 0 ] && [[ $line =~ ^[^[:space:]] ]]; then
      T_AFTER=$(ms "$start" "$now")
    fi
    gap=$(ms "$last" "$now")
    [ "$gap" -le "$T_GAP" ] || T_GAP=$gap
    last=$now
  done < <("$@" 2>&1)
  now=$EPOCHREALTIME
  gap=$(ms "$last" "$now")
  [ "$gap" -le "$T_GAP" ] || T_GAP=$gap
  T_TOTAL=$(ms "$start" "$now")
}
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)
echo "measure-latency: the first ./workbook..." >&2
timed "$scratch/first.txt" '^Lesson +Status' "$tree/workbook"
first_total=$T_TOTAL first_table=$T_MATCH first_gap=$T_GAP

if [ -z "$lessons" ]; then
  for dir in "$tree"/lessons/[0-9][0-9]-*/; do [ -f "$dir/CMakeLists.txt" ] && lessons+="$(basename "$dir" | cut -c1-2) "; done
fi
rows=()
[ "$lessons" = none ] && lessons=''
for n in $lessons; do
  dir=$(echo "$tree"/lessons/"$n"-*/)
  dir=${dir%/}
  [ -d "$dir" ] || { echo "measure-latency: no lesson $n" >&2; continue; }
  file=$dir/exercise.cu
  [ -f "$file" ] || file=$dir/exercise.c
  echo "measure-latency: lesson $n..." >&2
  # Its first check builds it (not timed: a later lesson builds when first checked).
  timed "$scratch/$n.first.txt" '' "$tree/workbook" check "$n"
  first_check=$T_TOTAL
  times=()
  for ((i = 1; i <= runs; i++)); do
    echo "// measure-latency: edit $i at $EPOCHREALTIME" >>"$file"
    timed "$scratch/$n.check.$i.txt" '' "$tree/workbook" check "$n"
    times+=("$T_TOTAL")
  done
  med=$(printf '%s\n' "${times[@]}" | median)
  worst=$(printf '%s\n' "${times[@]}" | sort -n | tail -n 1)
  timed "$scratch/$n.run.txt" '^Running the ' "$tree/workbook" run "$n" -- --n 1000
  rows+=("| $n | $(secs "$first_check") | $(secs "$med") | $(secs "$worst") | $(secs "$T_FIRST") | $([ "$T_AFTER" -ge 0 ] && secs "$T_AFTER" || echo "n/a") |")
done
sanitizer_rows=()
if [ -n "$sanitizer_lesson" ]; then
  for mode in race asan; do # each the first of its kind: it builds that sanitizer's simulator
    echo "measure-latency: check $sanitizer_lesson --$mode..." >&2
    timed "$scratch/$sanitizer_lesson.$mode.txt" '' "$tree/workbook" check "$sanitizer_lesson" "--$mode"
    sanitizer_rows+=("| \`check $sanitizer_lesson --$mode\`, the first | $(secs "$T_TOTAL") s | $(secs "$T_FIRST") s | $(gap_secs "$T_GAP") s |")
  done
fi
load_after=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)

nvcc_note="nvcc's verdict included"
command -v nvcc >/dev/null || nvcc_note="no nvcc on this machine: no nvcc verdict"
echo "### Learner latency ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $load_before before, $load_after after)"
echo
echo "Measured with \`bash tests/workbook/measure-latency.sh --runs $runs\` on a fresh copy;"
echo "$nvcc_note; progress asked for every second, as a terminal shows it."
echo
echo "| first \`./workbook\` | total | progress table at | longest silence |"
echo "| --- | --- | --- | --- |"
echo "| fresh copy | $(secs "$first_total") s | $(secs "$first_table") s | $(gap_secs "$first_gap") s |"
echo
echo "| lesson | first check (builds it) s | check after a one-line edit, median of $runs, s | slowest s | \`run NN\` first line s | program's first line s |"
echo "| --- | --- | --- | --- | --- | --- |"
printf '%s\n' "${rows[@]}"
if [ ${#sanitizer_rows[@]} -gt 0 ]; then
  echo
  echo "| sanitizer check | total | first line at | longest silence |"
  echo "| --- | --- | --- | --- |"
  printf '%s\n' "${sanitizer_rows[@]}"
fi
