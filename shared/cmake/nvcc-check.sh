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
# A smaller front-end pass: the toolkit's tables of numbers. curand_kernel.h brings in
# curand_precalc.h, 1.4 MB of unsigned ints (a fifth of lesson 12's preprocessed text), and both
# front ends parse it each time (0.17 s of cicc's 1.4 s of front end, by its own trace; the
# verdict takes 0.37 CPU-s less of lesson 12's 4.9 without it: docs/results.md). Between a
# preprocessing step and its front end, thin_tables blanks the lines of numbers in the initializer
# of a toolkit array that is neither const nor constexpr and has every bound written out: the
# array's type is the same, its elements are zero, and a value of a non-const object is never seen
# by the compiler (no constant expression reads it), so what compiles is what compiled. Blank
# lines keep every line number. Only files under nvcc's own folder ($TOP) are touched, never the
# learner's (a narrowing error in their table must still be found); the names of the files thinned
# go to $scratch/thinned, and a rejection that names one is asked of nvcc as it is (nvcc_split).
# WB_NVCC_THIN=0 turns it off.
thin_tables() { # FILE: thins the preprocessed FILE in place
  [ "${WB_NVCC_THIN:-1}" != 0 ] && [ -n "${TOP:-}" ] || return 0
  awk -v top="\"$TOP/" -v names="$scratch/thinned" '
    # (a table is thinned within one file: the lines of another, even inside it, are left alone)
    /^# [0-9]+ "/ { if ($3 != file) depth = 0; toolkit = index($3, top) == 1; file = $3; print; next }
    depth > 0 {
      if ($0 ~ /^([ \t]*(0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*[ \t]*,?)+[ \t]*$/) {
        print ""
        if (!(file in seen)) { seen[file] = 1; print substr(file, 2, length(file) - 2) >>names }
        next
      }
      depth += gsub(/\{/, "{") - gsub(/\}/, "}")
      print
      next
    }
    toolkit && /\[[0-9]+[uUlL]*\][ \t]*=[ \t]*\{[ \t]*$/ && !/\[[ \t]*\]/ && !/const/ { depth = 1 }
    { print }' "$1" >"$1.thin" && mv -f "$1.thin" "$1"
}
thin_step() { # PREPROCESSING-COMMAND: prints the thin_tables line for its output file
  [[ $1 =~ \ -o\ \"([^\"]+)\" ]] || return 1
  printf 'thin_tables %q\n' "${BASH_REMATCH[1]}"
}
# nvcc's verdict in two chains side by side. nvcc runs its steps one after another: the host
# front end (preprocess, cudafe++), then the device one (preprocess, cicc, ptxas), then steps that
# cannot fail on a learner's code (fatbinary, the host stub's preprocessing). The two front ends
# share nothing but a module id, so they run at once here, from nvcc's own --dryrun plan (each in
# its own folder), and the log reads as nvcc's would: the host chain's lines, then, if it passed,
# the device chain's. On two cores this halves the wait for a lesson with heavy headers (lesson 12:
# cooperative groups and cuRAND). Returns nvcc's status (0 or not), or 125 when the plan is not
# the one expected (then nvcc runs as usual). WB_NVCC_SPLIT=0 turns it off.
nvcc_plan() { # SIDE(host|device) ARGS...: prints that side's commands, one a line; fails if unexpected
  local side=$1 line dir=$scratch/$1
  shift
  mkdir -p "$dir"
  "$nvcc" "$@" -keep -keep-dir "$dir" --dryrun >"$dir/plan" 2>&1 || return 1
  local -a env=() host=() device=()
  while IFS= read -r line; do
    [[ $line == '#$ '* ]] || continue
    line=${line#'#$ '}
    if [[ $line =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; then
      # Only the value as it stands (nvcc's own variables; the steps use PATH and CICC_PATH).
      env+=("$(printf 'export %s=%q' "${line%%=*}" "${line#*=}")")
    elif [[ $line == *cudafe++\ * ]]; then
      host+=("$line")
    elif [[ $line == cicc\ * || $line == *'/cicc" '* || $line == */cicc\ * ]] ||
      [[ $line == ptxas\ * || $line == */ptxas\ * ]]; then
      device+=("$line")
    elif [[ $line == fatbinary\ * || $line == */fatbinary\ * || $line == rm\ * ]]; then
      :
    elif [[ $line == *' -E '* && $line == *' -D__CUDA_ARCH__='* ]]; then
      device=("$line" "${device[@]}")
    elif [[ $line == *' -E '* ]]; then
      [ ${#host[@]} -eq 0 ] && host+=("$line") # the stub's final preprocessing (later): skipped
    else
      return 1
    fi
  done <"$dir/plan"
  [ ${#host[@]} -eq 2 ] && [[ ${host[1]} == *cudafe++* ]] || return 1
  [ ${#device[@]} -eq 3 ] && [[ ${device[1]} == *cicc* ]] || return 1
  printf '%s\n' "${env[@]}"
  if [ "$side" = host ]; then
    printf "%s\n" "${host[0]}"
    thin_step "${host[0]}" || return 1
    printf "%s\n" "${host[1]}"
    return 0
  fi
  # The device side's module id, which nvcc has cudafe++ write first: any name does for a verdict.
  [[ ${device[1]} =~ --module_id_file_name\ \"([^\"]+)\" ]] || return 1
  printf 'printf %%s _00000000_0_wb_check_00000000 >%q\n' "${BASH_REMATCH[1]}"
  printf "%s\n" "${device[0]}"
  thin_step "${device[0]}" || return 1
  printf "%s\n" "${device[@]:1}"
}
nvcc_split() { # LOG ARGS...
  local log=$1
  shift
  [ "${WB_NVCC_SPLIT:-1}" != 0 ] || return 125
  # Only plain paths and flags go through the shell (nvcc's plan quotes them for sh).
  [[ "$* $scratch" =~ ^[A-Za-z0-9_./+=,:@%\ -]*$ ]] || return 125
  nvcc_plan host "$@" >"$scratch/host.sh" && nvcc_plan device "$@" >"$scratch/device.sh" || return 125
  # Each step in order, stopping at the first that fails, as nvcc does. TMPDIR: cicc leaves its
  # NAME-HASH..lgenfe.bc in the temporary folder when it fails, and nvcc's plan removes it only in
  # the `rm` steps skipped here; in the scratch folder it goes with the rest.
  (set -e; export TMPDIR=$scratch/host; source "$scratch/host.sh") >"$scratch/host.log" 2>&1 &
  local host_pid=$!
  (set -e; export TMPDIR=$scratch/device; source "$scratch/device.sh") >"$scratch/device.log" 2>&1
  local device_status=$? host_status=0
  wait $host_pid || host_status=$?
  grep -v '^#\$ ' "$scratch/host/plan" >"$log"
  cat "$scratch/host.log" >>"$log"
  if [ $host_status -eq 0 ]; then
    cat "$scratch/device.log" >>"$log"
    host_status=$device_status
  fi
  # A failure with no compiler error in it is this script's, not the learner's: ask nvcc itself.
  [ $host_status -eq 0 ] || grep -q -w error "$log" || return 125
  # A rejection that names a file thin_tables thinned is asked of nvcc as it stands.
  if [ $host_status -ne 0 ] && [ -s "$scratch/thinned" ] && grep -q -F -f "$scratch/thinned" "$log"; then
    return 125
  fi
  return $host_status
}
nvcc_split "$scratch/log" -std=c++17 -arch=sm_90 -cuda "$@" "$source" -o "$scratch/out.ii"
status=$?
if [ $status -eq 125 ]; then
  "$nvcc" -std=c++17 -arch=sm_90 -cuda "$@" "$source" -o "$scratch/out.ii" >"$scratch/log" 2>&1
  status=$?
fi
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
