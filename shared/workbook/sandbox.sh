#!/usr/bin/env bash
# sandbox.sh [--write DIR]... PROGRAM ARGS...: run one graded program (or build) inside
# bubblewrap (`workbook grade` names it in WB_SANDBOX; shared/cmake/run-lesson.sh runs it). What the program gets:
#   - the whole file system read-only, a private empty /tmp, /dev minimal plus the NVIDIA nodes
#     (/dev/nvidia*, /dev/dxg) where there are any, its own /proc;
#   - write access to each --write DIR only (the build, when grade builds a submission);
#   - no network, its own PID namespace: every process it starts dies with it;
#   - the folders in WB_SANDBOX_HIDE (colon-separated: the solutions, the submissions, the grade's
#     logs) replaced by empty ones.
# `sandbox.sh --probe` exits 0 when bubblewrap works here, else prints why on one line.
set -u
if ! command -v bwrap >/dev/null; then
  echo "bwrap is not installed"
  exit 1
fi
args=(--ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --unshare-net --unshare-pid --unshare-ipc
  --unshare-uts --die-with-parent --new-session)
# A graded build never goes through ccache (a build configured with WB_CCACHE=ON, as CI's copies
# are): its cache is read-only here, and a grade takes nothing from a cache others wrote.
args+=(--setenv CCACHE_DISABLE 1)
for node in /dev/nvidia* /dev/dxg; do
  [ -e "$node" ] && args+=(--dev-bind "$node" "$node")
done
# The folders in WB_SANDBOX_SHOW (the grade's work folder: the build) are visible read-only even
# under /tmp.
IFS=: read -r -a show <<<"${WB_SANDBOX_SHOW:-}"
for dir in "${show[@]}"; do
  [ -n "$dir" ] && [ -d "$dir" ] && args+=(--ro-bind "$dir" "$dir")
done
while [ "${1:-}" = --write ] && [ $# -ge 2 ]; do
  args+=(--bind "$2" "$2")
  shift 2
done
IFS=: read -r -a hide <<<"${WB_SANDBOX_HIDE:-}"
for dir in "${hide[@]}"; do
  [ -n "$dir" ] && [ -d "$dir" ] && args+=(--tmpfs "$dir")
done
if [ "${1:-}" = --probe ]; then
  out=$(bwrap "${args[@]}" true 2>&1) && exit 0
  echo "bwrap fails: $(head -n 1 <<<"$out")"
  exit 1
fi
exec bwrap "${args[@]}" -- "$@"
