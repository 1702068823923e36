#!/usr/bin/env bash
# limits.sh [--memory MIB] [--cgroup-only] [--procs N] -- PROGRAM ARGS...: run PROGRAM (a graded
# build or run; `workbook grade` puts it in front of the sandbox) within limits on what a student
# controls. 0 is no limit. The time limit is timeout's, around this.
#   --memory MIB  the memory the processes use together: a cgroup of the run's own (memory.max,
#                 cgroup v2; memory.limit_in_bytes, v1) where this runs as root and one can be
#                 made; past it the kernel kills the largest (SIGKILL). Else, without
#                 --cgroup-only, each process may map MIB of data (RLIMIT_DATA, `ulimit -d`: heap
#                 and private writable mappings, what malloc and a compiler reading /dev/zero use;
#                 a compiler's limit). A lesson program gets --cgroup-only: RLIMIT_DATA counts
#                 reservations, and the simulator's memory checker reserves terabytes (it would
#                 be switched off) and CUDA its address space.
# `limits.sh --probe` prints "cgroup" where the cgroups can be made here, else "rlimit".
#   --procs N     the processes and threads of the run: the same cgroup's pids.max; else
#                 RLIMIT_NPROC (`ulimit -u`), which counts all of the user's processes, so it is
#                 set to the user's processes now plus N (Linux exempts root from it).
# Exit status: the program's (128+N for a signal). With a cgroup, every process left in it is
# killed when the program ends (a setsid child too), and the cgroup is removed.
set -u
memory=0 procs=0 cgroup_only=no
while [ $# -gt 0 ]; do
  case $1 in
    --memory) memory=$2; shift 2 ;;
    --cgroup-only) cgroup_only=yes; shift ;;
    --probe) probe=yes; shift ;;
    --procs) procs=$2; shift 2 ;;
    --) shift; break ;;
    *) break ;;
  esac
done
[[ $memory =~ ^[0-9]+$ && $procs =~ ^[0-9]+$ ]] || { echo "limits.sh: bad limit" >&2; exit 2; }
groups=() # the cgroups this run is in
# cgroup_of CONTROLLER: REPLY = the path of this shell's cgroup for CONTROLLER (cgroup v1), or in
# the unified hierarchy (CONTROLLER ''); read with builtins (this runs once per graded run).
cgroup_of() {
  local id ctls path
  REPLY=''
  while IFS=: read -r id ctls path; do
    if [ -z "$1" ]; then
      [ "$id" = 0 ] && [ -z "$ctls" ] && { REPLY=$path; return 0; }
    elif [[ $id =~ ^[0-9]+$ && ,$ctls, == *",$1,"* ]]; then
      REPLY=$path
      return 0
    fi
  done </proc/self/cgroup
  return 1
}
# make_group CONTROLLER FILE VALUE [FILE VALUE]: a cgroup of this run's own with the limit, joined.
make_group() {
  local controller=$1 base='' dir here
  local -a enabled
  shift
  [ "$EUID" -eq 0 ] || return 1
  # Inside the cgroup this runs in (a container's), never beside it.
  cgroup_of "$controller"
  here=${REPLY%/}
  if [ -w "/sys/fs/cgroup/$controller$here/cgroup.procs" ]; then base=/sys/fs/cgroup/$controller$here
  elif cgroup_of ''; here=${REPLY%/}; read -r -a enabled <"/sys/fs/cgroup$here/cgroup.subtree_control" 2>/dev/null &&
    [[ " ${enabled[*]} " == *" $controller "* ]] && [ -w "/sys/fs/cgroup$here/cgroup.procs" ]; then
    base=/sys/fs/cgroup$here
    [ "$controller" = pids ] || [ ${#groups[@]} -eq 0 ] || [ "${groups[0]%/*}" != "$base" ] || dir=${groups[0]}
  fi
  [ -n "$base" ] || return 1
  # What a run killed before its own cleanup left (its limits.sh is gone): removed when empty.
  for dir in "$base"/workbook-grade-*; do
    [ -d "$dir" ] || continue
    here=${dir##*/workbook-grade-}
    [ -d "/proc/${here%%-*}" ] || rmdir "$dir" 2>/dev/null
  done
  dir=''
  if [ -z "${dir:-}" ]; then
    dir=$base/workbook-grade-$$-$RANDOM
    [ "${groups[0]:-}" != "$dir" ] || return 1
    if [ ${#groups[@]} -gt 0 ] && [ "${groups[0]%/*}" = "$base" ]; then dir=${groups[0]}; else mkdir "$dir" 2>/dev/null || return 1; fi
  fi
  while [ $# -ge 2 ]; do
    if [ -e "$dir/$1" ]; then echo "$2" >"$dir/$1" 2>/dev/null || { [ "$1" = memory.swap.max ] || [ "$1" = memory.memsw.limit_in_bytes ] || return 1; }; fi
    shift 2
  done
  echo $$ >"$dir/cgroup.procs" || return 1
  [[ " ${groups[*]} " == *" $dir "* ]] || groups+=("$dir")
}
if [ "${probe:-no}" = yes ]; then
  if make_group memory memory.max $((1 << 30)) memory.limit_in_bytes $((1 << 30)) && make_group pids pids.max 1000; then
    echo $$ >"${groups[0]%/*}/cgroup.procs" 2>/dev/null
    [ ${#groups[@]} -lt 2 ] || echo $$ >"${groups[1]%/*}/cgroup.procs" 2>/dev/null
    rmdir "${groups[@]}" 2>/dev/null
    echo cgroup
  else
    for dir in "${groups[@]}"; do echo $$ >"${dir%/*}/cgroup.procs" 2>/dev/null; rmdir "$dir" 2>/dev/null; done
    echo rlimit
  fi
  exit 0
fi
if [ "$memory" -gt 0 ]; then
  bytes=$((memory * 1024 * 1024))
  if make_group memory memory.max "$bytes" memory.swap.max 0 memory.limit_in_bytes "$bytes" memory.memsw.limit_in_bytes "$bytes"; then
    :
  elif [ $cgroup_only = no ]; then
    ulimit -d $((memory * 1024)) || exit 2
  fi
fi
if [ "$procs" -gt 0 ]; then
  if ! make_group pids pids.max "$procs"; then
    if command -v ps >/dev/null; then
      ulimit -u $(($(ps -L -u "$(id -u)" --no-headers 2>/dev/null | wc -l) + procs)) || exit 2
    fi
  fi
fi
if [ ${#groups[@]} -eq 0 ]; then exec "$@"; fi
# In cgroups: wait for the program, then empty them and remove them.
sweep() { # builtins only: the cgroup may have no room for a fork
  local round pid left dir
  local -a pids
  for dir in "${groups[@]}"; do
    for ((round = 0; round < 2000; round++)); do
      mapfile -t pids <"$dir/cgroup.procs" 2>/dev/null
      left=0
      for pid in "${pids[@]}"; do
        [ "$pid" = $$ ] && continue
        left=1
        kill -KILL "$pid" 2>/dev/null
      done
      [ $left -eq 1 ] || break
    done
  done
  for dir in "${groups[@]}"; do
    echo $$ >"${dir%/*}/cgroup.procs" 2>/dev/null
    rmdir "$dir" 2>/dev/null
  done
}
"$@" &
child=$!
trap 'kill -KILL "$child" 2>/dev/null; sweep; exit 143' TERM INT HUP
wait "$child" 2>/dev/null
status=$?
sweep
exit $status
