#!/usr/bin/env bash
# limits.sh [--memory MIB] [--procs N] -- PROGRAM ARGS...: run PROGRAM (a graded build or run,
# `workbook grade` puts it in front of the sandbox) with limits on what a student controls:
#   --memory MIB  the data each process may map (RLIMIT_DATA: heap and private writable mappings,
#                 what malloc and a compiler reading /dev/zero use; not the address space, which
#                 CUDA reserves in bulk); 0: no limit
#   --procs N     the processes and threads of this run: a pids cgroup of its own where this
#                 runs as root and one can be made (cgroup v1 /sys/fs/cgroup/pids or v2 with the
#                 pids controller); else RLIMIT_NPROC (ulimit -u), counted per user, so it is set
#                 to the user's processes now plus N (Linux exempts root from RLIMIT_NPROC); 0:
#                 no limit
# The time limit is timeout's, around this. Exit status: the program's (128+N for a signal). With
# a cgroup, every process left in it is killed when the program ends (a setsid child too).
set -u
memory=0 procs=0
while [ $# -gt 0 ]; do
  case $1 in
    --memory) memory=$2; shift 2 ;;
    --procs) procs=$2; shift 2 ;;
    --) shift; break ;;
    *) break ;;
  esac
done
[[ $memory =~ ^[0-9]+$ && $procs =~ ^[0-9]+$ ]] || { echo "limits.sh: bad limit" >&2; exit 2; }
[ "$memory" -eq 0 ] || ulimit -d $((memory * 1024)) || exit 2
cgroup=''
if [ "$procs" -gt 0 ]; then
  base=''
  if [ "$(id -u)" -eq 0 ]; then
    if [ -w /sys/fs/cgroup/pids/cgroup.procs ]; then base=/sys/fs/cgroup/pids
    elif grep -qw pids /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null && [ -w /sys/fs/cgroup/cgroup.procs ]; then base=/sys/fs/cgroup
    fi
  fi
  if [ -n "$base" ] && cgroup=$base/workbook-grade-$$-$RANDOM && mkdir "$cgroup" 2>/dev/null &&
    echo "$procs" >"$cgroup/pids.max" && echo $$ >"$cgroup/cgroup.procs"; then
    :
  else
    [ -z "$cgroup" ] || rmdir "$cgroup" 2>/dev/null
    cgroup=''
    ulimit -u $(($(ps -L -u "$(id -u)" --no-headers 2>/dev/null | wc -l) + procs)) || exit 2
  fi
fi
if [ -z "$cgroup" ]; then exec "$@"; fi
# In the cgroup: wait for the program, then empty the cgroup and remove it.
sweep() { # builtins only: the cgroup may have no room for a fork
  local round pid left
  local -a pids
  for ((round = 0; round < 2000; round++)); do
    mapfile -t pids <"$cgroup/cgroup.procs" 2>/dev/null
    left=0
    for pid in "${pids[@]}"; do
      [ "$pid" = $$ ] && continue
      left=1
      kill -KILL "$pid" 2>/dev/null
    done
    [ $left -eq 1 ] || break
  done
  echo $$ >"${cgroup%/*}/cgroup.procs" 2>/dev/null
  rmdir "$cgroup" 2>/dev/null
}
"$@" &
child=$!
trap 'kill -KILL "$child" 2>/dev/null; sweep; exit 143' TERM INT HUP
wait "$child"
status=$?
sweep
exit $status
