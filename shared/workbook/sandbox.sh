#!/usr/bin/env bash
# sandbox.sh [--write DIR]... PROGRAM ARGS...: run one graded program (or build) inside
# bubblewrap (`workbook grade` names it in WB_SANDBOX; shared/cmake/run-lesson.sh runs it). What the program gets:
#   - the system, read-only: /usr, /etc, /opt, /sys and the /bin, /lib... links (and the folder of
#     a build tool found elsewhere: cmake, ninja, the compilers, nvcc); nothing else of the host's
#     files (no home folders, no checkout, no gradebook, no grading file);
#   - the folders in WB_SANDBOX_SHOW (colon-separated: the graded tree and its build), read-only;
#   - write access to each --write DIR only (the build, when grade builds a submission);
#   - a private empty /tmp (TMPDIR points there), /dev minimal plus the NVIDIA nodes (/dev/nvidia*, /dev/dxg) where
#     there are any, its own /proc; no network, its own PID namespace: every process it starts
#     dies with it;
#   - the paths in WB_SANDBOX_HIDE (colon-separated) replaced by empty ones (a folder by an empty
#     tmpfs, a file by /dev/null), for any that lies inside what is shown.
# WB_SANDBOX_STARTED (a file, outside the sandbox): once the sandbox is set up, and before PROGRAM
# starts, a trusted shell inside it writes "started" there through a descriptor that it closes
# before PROGRAM runs. No line in it means the sandbox did not start: the grader's evidence, which
# nothing PROGRAM prints can forge.
# `sandbox.sh --probe` exits 0 when bubblewrap works here, else prints why on one line.
set -u
if ! command -v bwrap >/dev/null; then
  echo "bwrap is not installed"
  exit 1
fi
args=(--dev /dev --proc /proc --tmpfs /tmp --setenv TMPDIR /tmp --unshare-net --unshare-pid --unshare-ipc
  --unshare-uts --die-with-parent --new-session)
bound=()
bind_ro() { # PATH: bound read-only unless a folder above it is already
  local dir
  for dir in "${bound[@]}"; do [[ $1 == "$dir" || $1 == "$dir"/* ]] && return; done
  bound+=("$1")
  args+=(--ro-bind "$1" "$1")
}
for dir in /usr /etc /opt /sys; do [ -d "$dir" ] && bind_ro "$dir"; done
links=() # the /bin, /lib... that are links (to usr/bin...): made links again, one readlink for all
for dir in /bin /sbin /lib /lib32 /lib64 /libx32; do
  if [ -L "$dir" ]; then links+=("$dir")
  elif [ -d "$dir" ]; then bind_ro "$dir"
  fi
done
if [ ${#links[@]} -gt 0 ]; then
  mapfile -t targets < <(readlink -- "${links[@]}")
  if [ ${#targets[@]} -eq ${#links[@]} ]; then
    for i in "${!links[@]}"; do args+=(--symlink "${targets[$i]}" "${links[$i]}"); done
  fi
fi
# The build tools' folders: found through the shell's own hash (no subshell per tool), their
# links resolved by one readlink for all (this script runs once per graded run: few processes).
tools=()
for tool in cmake ctest ninja make cc c++ gcc g++ nvcc; do
  hash "$tool" 2>/dev/null && tools+=("${BASH_CMDS[$tool]}")
done
[ ${#tools[@]} -eq 0 ] || mapfile -t tools < <(readlink -f -- "${tools[@]}")
for tool in "${tools[@]}"; do
  tool=${tool%/*}
  [ "${tool%/bin}" = "$tool" ] || tool=${tool%/bin}
  [ -n "$tool" ] && [ "$tool" != / ] && bind_ro "$tool"
done
# A graded build never goes through ccache (a build configured with WB_CCACHE=ON, as CI's copies
# are): its cache is read-only here, and a grade takes nothing from a cache others wrote. The one
# exception is the grading tests' (WORKBOOK_GRADE_CCACHE_DIR, which grade passes to its builds
# alone as WB_SANDBOX_CCACHE): a cache folder of that test run's own, written only by the builds
# of that run, shown to them writable and to no run of a program.
if [ -n "${WB_SANDBOX_CCACHE:-}" ] && [ -d "$WB_SANDBOX_CCACHE" ]; then
  args+=(--bind "$WB_SANDBOX_CCACHE" "$WB_SANDBOX_CCACHE" --setenv CCACHE_DIR "$WB_SANDBOX_CCACHE" --unsetenv CCACHE_DISABLE)
else
  args+=(--setenv CCACHE_DISABLE 1)
fi
# The simulator's rewrite cache (cusim-rewrite-step) lives in ccache's folder, or where this names.
args+=(--unsetenv CUSIM_REWRITE_CACHE_DIR)
for node in /dev/nvidia* /dev/dxg; do
  [ -e "$node" ] && args+=(--dev-bind "$node" "$node")
done
IFS=: read -r -a show <<<"${WB_SANDBOX_SHOW:-}"
for dir in "${show[@]}"; do
  [ -n "$dir" ] && [ -e "$dir" ] && args+=(--ro-bind "$dir" "$dir")
done
while [ "${1:-}" = --write ] && [ $# -ge 2 ]; do
  args+=(--bind "$2" "$2")
  shift 2
done
IFS=: read -r -a hide <<<"${WB_SANDBOX_HIDE:-}"
for dir in "${hide[@]}"; do
  if [ -n "$dir" ] && [ -d "$dir" ]; then args+=(--tmpfs "$dir")
  elif [ -n "$dir" ] && [ -e "$dir" ]; then args+=(--ro-bind /dev/null "$dir")
  fi
done
if [ "${1:-}" = --probe ]; then
  out=$(bwrap "${args[@]}" true 2>&1) && exit 0
  echo "bwrap fails: $(head -n 1 <<<"$out")"
  exit 1
fi
started=${WB_SANDBOX_STARTED:-}
unset WB_SANDBOX_STARTED WB_SANDBOX_SHOW WB_SANDBOX_HIDE WB_SANDBOX_CCACHE
if [ -z "$started" ]; then exec bwrap "${args[@]}" -- "$@"; fi
exec 9>>"$started" || exit 1
# shellcheck disable=SC2016 # expanded by the shell inside the sandbox
exec bwrap "${args[@]}" -- /bin/sh -c 'echo started >&9; exec 9>&-; exec "$@"' sh "$@"
