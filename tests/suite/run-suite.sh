#!/usr/bin/env bash
# tests/suite/run-suite.sh [--nvcc | --gpu] [--list FILE] [--work DIR] [--jobs N] [--timeout S]
#                          [--allow-known]
#
# The workbook's benchmark suite: small self-checking programs in the styles of the suites people
# port (tests/suite/*.cu, listed in tests/suite/suite.list), each built with an nvcc command line
# as a real Makefile writes it. By default each is built with the simulator's nvcc-sim
# (shared/sim/bin/nvcc-sim; CUSIM_BUILD_DIR reuses a CMake build's simulator) and run under a time
# limit, and its outcome is compared with the one the list expects. One line a program, then
# "suite: N/M programs gave their verified answer"; exit 0 only when N == M.
#   --nvcc         build each with the real nvcc for sm_90 instead, and run nothing
#   --gpu          build each with the real nvcc for sm_90 and run it on the GPU: every program,
#                  those with a bug of their own (strict) included, must pass there
#   --allow-known  exit 0 also when the only programs not verified are marked known (simulator
#                  bugs, named in the list); one marked known that passes fails the run
#   --list FILE    another list (default: suite.list next to this script)
#   --work DIR     where builds and logs go (default: a temporary folder, removed at the end)
#   --jobs N       builds at a time (default 2); --timeout S: each run's limit (default 60)
# Fetches nothing.
set -u -o pipefail
suite=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$suite/../.." && pwd)

mode=sim list=$suite/suite.list work='' jobs=2 limit=60 allow_known=0
while [ $# -gt 0 ]; do
  case $1 in
    --nvcc) mode=nvcc ;;
    --gpu) mode=gpu ;;
    --allow-known) allow_known=1 ;;
    --list) list=${2:?--list needs a file}; shift ;;
    --work) work=${2:?--work needs a folder}; shift ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift ;;
    --timeout) limit=${2:?--timeout needs seconds}; shift ;;
    -h | --help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "suite: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done
[ -f "$list" ] || { echo "suite: no list $list" >&2; exit 2; }
if [ "$mode" = sim ]; then
  compiler=$root/shared/sim/bin/nvcc-sim
else
  compiler=$(command -v nvcc) || { echo "suite: --$mode needs nvcc, and none is on PATH" >&2; exit 3; }
fi
if [ -z "$work" ]; then
  work=$(mktemp -d "${TMPDIR:-/tmp}/suite.XXXXXX") || exit 3
  trap 'rm -rf "$work"' EXIT
fi
case $work in /*) ;; *) work=$PWD/$work ;; esac
# The builds run in tests/suite: a relative CUSIM_BUILD_DIR is taken from the caller's folder.
case ${CUSIM_BUILD_DIR:-/} in /*) ;; *) export CUSIM_BUILD_DIR=$PWD/$CUSIM_BUILD_DIR ;; esac
mkdir -p "$work" || exit 3

trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; printf '%s' "${s%"${s##*[![:space:]]}"}"; }
names=()
declare -A sources=() flags=() expect=()
while IFS='|' read -r name srcs flg exp; do
  name=$(trim "$name")
  case $name in '' | '#'*) continue ;; esac
  names+=("$name")
  sources[$name]=$(trim "$srcs") flags[$name]=$(trim "$flg") expect[$name]=$(trim "$exp")
done <"$list"
[ ${#names[@]} -gt 0 ] || { echo "suite: $list lists no program" >&2; exit 2; }

# build NAME: the program's command lines, in its own folder; the status goes to DIR/built.
build() {
  local name=$1 dir=$work/$1 src arch=() args=() objects=() c_objects=() f
  local -a srcs opts
  read -r -a srcs <<<"${sources[$name]}"
  read -r -a opts <<<"${flags[$name]}"
  local after_arch=0
  for f in "${opts[@]}"; do # the list's architecture for nvcc-sim; sm_90 for the real nvcc
    if [ $after_arch = 1 ]; then
      after_arch=0
      [ "$mode" = sim ] && args+=("$f") && arch=(-arch "$f")
      continue
    fi
    case $f in
      -arch) after_arch=1 && [ "$mode" = sim ] && args+=("$f") ;;
      -arch=*) [ "$mode" = sim ] && args+=("$f") && arch=("$f") ;;
      *) args+=("$f") ;;
    esac
  done
  [ "$mode" = sim ] || { args=(-arch=sm_90 "${args[@]}"); arch=(-arch=sm_90); }
  rm -rf "$dir" && mkdir -p "$dir" || return
  (
    cd "$suite" || exit 1
    if [[ " ${args[*]} " == *" -dc "* ]]; then
      local c_args=()
      for f in "${args[@]}"; do case $f in -dc | -rdc=*) ;; *) c_args+=("$f") ;; esac; done
      for src in "${srcs[@]}"; do
        case $src in
          *.c) "$compiler" "${c_args[@]}" -c -o "$dir/${src%.*}.o" "$src" || exit 1
            c_objects+=("$dir/${src%.*}.o") ;;
          *) "$compiler" "${args[@]}" -o "$dir/${src%.*}.o" "$src" || exit 1
            objects+=("$dir/${src%.*}.o") ;;
        esac
      done
      "$compiler" "${arch[@]}" -dlink "${objects[@]}" -o "$dir/dlink.o" &&
        "$compiler" "${arch[@]}" "${objects[@]}" "$dir/dlink.o" "${c_objects[@]}" -o "$dir/$name"
    else
      "$compiler" "${args[@]}" -o "$dir/$name" "${srcs[@]}"
    fi
  ) >"$dir/build.log" 2>&1
  echo $? >"$dir/built"
}

# run NAME: in its own folder under the time limit; output to DIR/run.log, status to DIR/status.
run() {
  local dir=$work/$1
  (cd "$dir" && timeout "$limit" "./$1") >"$dir/run.log" 2>&1
  echo $? >"$dir/status"
}

job() { build "$1" && [ "$mode" = nvcc ] || [ "$(cat "$work/$1/built")" != 0 ] || run "$1"; }
for name in "${names[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  job "$name" &
done
wait

# One line a program: PASS or FAIL, and why.
short() { tr -s ' \t' ' ' | cut -c1-"$1"; }
verified=0 unexpected=0
for name in "${names[@]}"; do
  dir=$work/$name want=${expect[$name]} built=$(cat "$dir/built" 2>/dev/null || echo '?')
  kind=${want%%:*} text=$(trim "${want#*:}")
  [ "$kind" = "$want" ] && text=''
  if [ "$built" != 0 ]; then
    why="does not build: $(grep -m 1 -E 'error' "$dir/build.log" | short 60)"
  elif [ "$mode" = nvcc ]; then
    why=''
  else
    status=$(cat "$dir/status") output=$(cat "$dir/run.log")
    passed=0
    [ "$status" = 0 ] && grep -q "^PASS $name" <<<"$output" && passed=1
    if [ "$kind" = strict ] && [ "$mode" = sim ]; then
      if [ "$status" != 0 ] && grep -qF -- "$text" <<<"$output"; then
        why=''
      elif [ $passed = 1 ]; then
        why="passed, but its own bug should stop it: $text"
      else
        why="exit $status without the checker's line '$text'"
      fi
    elif [ $passed = 1 ]; then
      why=''
    elif [ "$status" = 124 ]; then
      why="still running after its ${limit} s"
    else
      why="exit $status: $( (grep -m 1 -E '^(FAIL|cusim: error)' <<<"$output" || tail -n 1 <<<"$output") | short 60)"
    fi
  fi
  if [ -z "$why" ] && [ "$kind" = known ] && [ "$mode" = sim ]; then
    echo "FAIL $name: passes, yet marked known ($text): remove the mark"
    unexpected=$((unexpected + 1))
    verified=$((verified + 1))
  elif [ -z "$why" ]; then
    verified=$((verified + 1))
    case $mode.$kind in
      nvcc.*) echo "PASS $name: built with nvcc for sm_90" ;;
      sim.strict) echo "PASS $name: stopped by the checker at its own bug, as expected" ;;
      *) echo "PASS $name: $(grep -m 1 "^PASS $name" "$dir/run.log" | sed "s/^PASS $name: //" | short $((74 - ${#name})))" ;;
    esac
  elif [ "$kind" = known ] && [ "$mode" = sim ]; then
    echo "FAIL $name: $why (known: $text)"
  else
    echo "FAIL $name: $why"
    unexpected=$((unexpected + 1))
  fi
done
what="gave their verified answer"
[ "$mode" = nvcc ] && what="built with nvcc"
[ "$mode" = gpu ] && what="gave their verified answer on the GPU"
echo "suite: $verified/${#names[@]} programs $what"
[ "$verified" -eq ${#names[@]} ] && exit 0
[ $allow_known = 1 ] && [ $unexpected = 0 ] && exit 0
exit 1
