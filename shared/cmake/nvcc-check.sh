#!/usr/bin/env bash
# nvcc-check.sh NVCC SOURCE [NVCC-FLAGS...]
#
# The learner's loop asks real nvcc whether SOURCE compiles, even when the check itself runs on
# the simulator: nvcc is the oracle for what compiles. It runs nvcc's front ends (host and device
# side: execution spaces, kernel signatures, types) but not the host compiler's code generation:
# `-arch=sm_90 -cuda` measured 0.9 s for lesson 03 against 1.3 s for `-c` (one arch) and 2.5 s
# for `-c` with sm_75 and sm_90; `-ptx` (0.4 s) misses host-side errors such as a host function
# calling a __device__ one. Errors are shown as FILE:LINE: error: ..., first ones first.
# Exit 0 when nvcc accepts SOURCE, 1 when it rejects it, 3 when nvcc cannot be run.
#
# WB_NVCC_CACHE=DIR (the learner build sets it to <build>/nvcc-verdicts): a verdict is kept under
# the SHA-256 of everything it depends on (nvcc's path and version, the flags, SOURCE, and every
# file of SOURCE's folder and of each -I folder given), and given again while none of that
# changed, so `run NN` after `check NN`, or a check of an unchanged file, does not wait for nvcc
# (a lesson with cooperative groups and cuRAND takes nvcc about 4 s of CPU). A SOURCE that
# includes a quoted path with a '/' in it (a file elsewhere) is never cached.
set -u
nvcc=${1:?usage: nvcc-check.sh NVCC SOURCE [FLAGS...]} source=${2:?source}
shift 2
if ! command -v "$nvcc" >/dev/null 2>&1; then
  echo "nvcc-check: cannot run '$nvcc' (was the CUDA toolkit removed? reconfigure the build)"
  exit 3
fi
scratch=$(mktemp -d "${TMPDIR:-/tmp}/nvcc-check.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

cache=${WB_NVCC_CACHE:-} key=''
if [ -n "$cache" ] && [ -f "$source" ] && ! grep -q -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*/' "$source"; then
  key=$(
    {
      printf '%s\n' "$nvcc" "$@"
      "$nvcc" --version 2>&1
      dirs=("$(dirname "$source")")
      for flag in "$@"; do [[ $flag == -I* ]] && dirs+=("${flag#-I}"); done
      find "${dirs[@]}" -maxdepth 1 -type f -print0 2>/dev/null | sort -z | xargs -0 -r sha256sum
      sha256sum <"$source"
    } | sha256sum | cut -d' ' -f1
  )
  if [ -f "$cache/$key.out" ] && [ -f "$cache/$key.status" ]; then
    cat "$cache/$key.out"
    exit "$(cat "$cache/$key.status")"
  fi
fi

verdict() { # the verdict's lines and status, from nvcc's log
  if [ "$1" -eq 0 ]; then
    echo "nvcc accepts ${source##*/}"
    return 0
  fi
  # nvcc writes FILE(LINE): error: ...; editors and the simulator's messages use FILE:LINE:.
  echo "nvcc rejects ${source##*/} (the CUDA compiler; a GPU build would fail):"
  sed -E 's/^([^ (][^(]*)\(([0-9]+)\): /\1:\2: /' "$scratch/log" | grep -v -E '^Compilation terminated|^$' | head -n 30
  return 1
}
"$nvcc" -std=c++17 -arch=sm_90 -cuda "$@" "$source" -o "$scratch/out.ii" >"$scratch/log" 2>&1
status=$?
# Only a real verdict is kept: an acceptance, or a rejection with nvcc's errors (not a crash).
[ $status -eq 0 ] || grep -q -E 'error' "$scratch/log" || key=''
[ $status -eq 0 ] || status=1
verdict $status >"$scratch/verdict"
cat "$scratch/verdict"
if [ -n "$key" ] && mkdir -p "$cache" 2>/dev/null; then
  # Written under a temporary name and renamed, so a check beside this one never reads half.
  cp "$scratch/verdict" "$cache/$key.out.$$" && mv -f "$cache/$key.out.$$" "$cache/$key.out"
  echo $status >"$cache/$key.status.$$" && mv -f "$cache/$key.status.$$" "$cache/$key.status"
fi
exit $status
