#!/usr/bin/env bash
# run-lesson.sh MODE SECONDS PROGRAM ARGSET...
#
# Runs a lesson program once per ARGSET (one string of flags, e.g. "--n 1000"), each run with a
# time limit, so one CTest test checks several sizes.
#   MODE check:       pass when every run passes (exit 0); stop at the first that does not and
#                     return its exit code (77, "no CUDA device", is passed on: CTest skips).
#   MODE expect-fail: the exercise-is-open guard. Pass when some run reports a wrong result
#                     (exit 1) and none crashes or errors; fail when every run passes.
#   MODE mutant:      a plausible wrong answer (tests/mutants). Pass when some run fails (any
#                     exit but 0 and 77) and its output matches the extended regular expression
#                     in $WB_EXPECT (the message that names the task); fail otherwise.
#
# A run passes only when the program exits 0 AND its driver wrote a verdict record saying PASS
# with the random token this script gave that run (shared/harness/verdict.h): output saying PASS
# proves nothing, and a program that exits before its checks end, or whose exit status is changed
# after them, fails. Each run is its own process group, killed whole when the run ends, so a
# child it left behind cannot outlive it. Set by `workbook grade` (not seen by the program):
#   WB_VERDICT_LOG  a file that gets one line per run: "run K PASS|FAIL|NONE exit=S tasks=N,..."
#   WB_SANDBOX      a command run as WB_SANDBOX PROGRAM ARGS... (shared/workbook/sandbox.sh)
#   WB_OUTPUT_LIMIT the bytes of output kept per run (default 65536), then "output cut at N bytes"
#   WB_LIMITS       shared/workbook/limits.sh, put in front of the sandbox with the memory
#                   (WB_LIMIT_MEMORY, MiB: a cgroup's only) and process (WB_LIMIT_PROCS) limits
# With WB_SANDBOX, each run is given WB_SANDBOX_STARTED (sandbox.sh writes "started" there once
# the sandbox is set up); a run whose file stays empty adds "sandbox K failed exit=S" to
# WB_VERDICT_LOG: the grader's own evidence that the sandbox did not start (never the output).
# Under a sanitizer (set by the sanitizer builds' tests, Workbook.cmake):
#   WB_SANITIZER    its name (AddressSanitizer, ThreadSanitizer): each run may take 10 times
#                   SECONDS, and a run out of time is put down to the sanitizer's speed, with how
#                   to give it more, never to a loop of the learner's
#   WORKBOOK_SANITIZER_TIMEOUT  seconds a run may take under a sanitizer (instead of 10 x SECONDS)
#   WORKBOOK_RACE_MAX_N  under ThreadSanitizer, the largest --n that runs (default the lesson's
#                   WB_LESSON_RACE_MAX_N, from workbook_lesson's RACE_MAX_N, else 5000): each
#                   CUDA thread is TSan fibers made and destroyed, about 2 ms of CPU, so --n 100003
#                   takes many minutes; the plain check runs every size, with the simulator's own
#                   race checker, and a race shows at small sizes
set -u
mode=${1:?mode} seconds=${2:?seconds} program=${3:?program}
shift 3
sanitizer=${WB_SANITIZER:-}
if [ -n "$sanitizer" ]; then
  if [[ ${WORKBOOK_SANITIZER_TIMEOUT:-} =~ ^[1-9][0-9]*$ ]]; then
    seconds=$WORKBOOK_SANITIZER_TIMEOUT
  elif [ -n "${WORKBOOK_SANITIZER_TIMEOUT:-}" ]; then
    echo "WORKBOOK_SANITIZER_TIMEOUT must be a number of seconds, not '$WORKBOOK_SANITIZER_TIMEOUT'"
    exit 2
  else
    seconds=$((seconds * 10))
  fi
fi
race_max_n=''
if [ "$sanitizer" = ThreadSanitizer ]; then
  race_max_n=${WORKBOOK_RACE_MAX_N:-${WB_LESSON_RACE_MAX_N:-5000}}
  if ! [[ $race_max_n =~ ^[1-9][0-9]*$ ]]; then
    echo "WORKBOOK_RACE_MAX_N must be a whole number, not '$race_max_n'"
    exit 2
  fi
fi
# above_race_max ARGSET: true when its --n is past race_max_n (a size with a suffix, 1M, is).
above_race_max() {
  [ -n "$race_max_n" ] || return 1
  local n
  n=$(sed -n -E 's/.*--n[ =]+([^ ]+).*/\1/p' <<<"$1")
  [ -n "$n" ] || return 1
  [[ $n =~ ^[0-9]+$ ]] || return 0
  [ ${#n} -gt 18 ] || [ "$n" -gt "$race_max_n" ]
}
[ $# -gt 0 ] || set -- ""
verdict_log=${WB_VERDICT_LOG:-}
unset WB_VERDICT_LOG
sandbox=() limits=()
[ -n "${WB_SANDBOX:-}" ] && sandbox=("$WB_SANDBOX")
[ -n "${WB_LIMITS:-}" ] && limits=("$WB_LIMITS" --memory "${WB_LIMIT_MEMORY:-0}" --cgroup-only --procs "${WB_LIMIT_PROCS:-0}" --)
unset WB_LIMITS WB_LIMIT_MEMORY WB_LIMIT_PROCS
run_number=0

# `./workbook` builds only the backend it checks on, so a plain `ctest` in its build folder can
# meet a program that was never built: a CUDA one on a machine without a GPU is a skip (it could
# not run here anyway); anything else fails with what to do, never as a pass.
if [ ! -x "$program" ]; then
  if [[ $program == *.cuda ]] && [ ! -e /dev/nvidiactl ] && [ ! -e /dev/nvidia0 ] && [ ! -e /dev/dxg ]; then
    echo "no CUDA device: no NVIDIA driver found (and ${program##*/} is not built)"
    exit 77
  fi
  echo "not built: ${program##*/} (run: cmake --build ${program%/bin/*})"
  exit 1
fi

run_one() { # prints the program's output, returns its exit code
  local argset=$1 status token token_fd record_fd pid verdict tasks
  run_number=$((run_number + 1))
  # shellcheck disable=SC2086 # an argset is a string of flags, split on purpose
  set -- $argset
  case " $argset " in *" --repeat "*) ;; *) set -- "$@" --repeat 1 ;; esac
  token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
  : >"$record"
  : >"$started"
  exec {token_fd}< <(printf '%s\n' "$token") {record_fd}>>"$record"
  # timeout makes its own process group; what is left of it after the run is killed.
  WB_TOKEN_FD=$token_fd WB_RECORD_FD=$record_fd WB_SANDBOX_STARTED=$started \
    timeout --kill-after=5 "$seconds" "${limits[@]}" "${sandbox[@]}" "$program" "$@" &
  pid=$!
  running=$pid
  wait "$pid" 2>/dev/null # a crash: the program says where; the shell's own job line is noise
  status=$?
  kill -KILL -- "-$pid" 2>/dev/null
  running=''
  exec {token_fd}<&- {record_fd}>&-
  verdict=$(record_verdict "$token" "$record")
  tasks=${verdict#* }
  verdict=${verdict%% *}
  [ -z "$verdict_log" ] || echo "run $run_number $verdict exit=$status tasks=$tasks" >>"$verdict_log"
  if [ ${#sandbox[@]} -gt 0 ] && [ ! -s "$started" ] && [ "$verdict" = NONE ]; then
    [ -z "$verdict_log" ] || echo "sandbox $run_number failed exit=$status" >>"$verdict_log"
  fi
  if [ $status -eq 0 ] && [ "$verdict" = NONE ]; then
    echo "FAIL: no verdict from the checker: the program ended early or exited on its own"
    return 1
  fi
  if [ $status -eq 0 ] && [ "$verdict" = FAIL ]; then
    echo "FAIL: the checker's verdict was FAIL, but the program exited 0 (its exit was changed)"
    return 1
  fi
  if { [ $status -eq 124 ] || [ $status -eq 137 ]; } && [ -n "$sanitizer" ]; then
    # The sanitizer's own speed, not the learner's loop: say so, and how to give it more time.
    echo "TIMEOUT under $sanitizer: '${program##*/} $*' did not finish in $seconds s." \
      "$sanitizer makes code 5 to 20 times slower, more on a busy machine." \
      "To give each run more time: WORKBOOK_SANITIZER_TIMEOUT=$((seconds * 3)) (seconds)." \
      "A loop that never ends would time out in the plain check too." | fold -s -w 76 | sed 's/ *$//'
    return 124
  fi
  if [ $status -eq 124 ] || [ $status -eq 137 ]; then
    echo "TIMEOUT: '${program##*/} $*' did not finish in $seconds s: does a loop in your code never end?"
    return 124
  fi
  if [ $status -gt 128 ]; then
    echo "CRASH: '${program##*/} $*' was killed by signal $((status - 128)) ($(kill -l $((status - 128)) 2>/dev/null || echo '?'))"
  fi
  return $status
}

# RECORD's verdict for TOKEN: "PASS -", "FAIL N,M" (the tasks it names) or "NONE -" when the
# record is missing, incomplete, carries another token or holds anything else.
record_verdict() { # TOKEN RECORD
  awk -v token="$1" '
    NR == 1 { ok = ($0 == "wb-verdict " token); next }
    end != "" { ok = 0 }
    /^task [0-9]+ fail$/ { tasks = tasks (tasks == "" ? "" : ",") $2; next }
    /^end (PASS|FAIL)$/ { end = $2; next }
    { ok = 0 }
    END {
      if (NR > 20 || !ok || end == "") print "NONE -"
      else print end, (tasks == "" ? "-" : tasks)
    }' "$2" 2>/dev/null || echo "NONE -"
}

# What a run printed, shown up to WB_OUTPUT_LIMIT bytes (default 64 KiB): one program printing
# 200 MB must not make a gradebook or a CTest log of that size. The cut is said in one line.
output_limit=${WB_OUTPUT_LIMIT:-65536}
unset WB_OUTPUT_LIMIT
[[ $output_limit =~ ^[1-9][0-9]*$ ]] || output_limit=65536
show_output() {
  local size
  size=$(stat -c %s "$log" 2>/dev/null || echo 0)
  if [ "$size" -le "$output_limit" ]; then cat "$log"; return; fi
  head -c "$output_limit" "$log"
  printf '\n[output cut at %s bytes: the run printed %s]\n' "$output_limit" "$size"
}
saw_wrong=0
log=$(mktemp)
record=$(mktemp)
started=$(mktemp)
trap 'rm -f "$log" "$record" "$started"' EXIT
# Interrupted (Ctrl-C, ctest's timeout): the run's process group goes too, not only this script.
running=''
trap '[ -z "$running" ] || kill -KILL -- "-$running" 2>/dev/null; exit 130' INT TERM
for argset in "$@"; do
  echo "==> ${program##*/} $argset"
  if above_race_max "$argset"; then
    echo "(not run: ThreadSanitizer stops at --n $race_max_n; the plain check runs all sizes)"
    continue
  fi
  run_one "$argset" > "$log" 2>&1
  status=$?
  show_output
  case $mode in
    check)
      [ $status -eq 0 ] || exit $status ;;
    mutant)
      if [ $status -ne 0 ] && [ $status -ne 77 ]; then
        # Messages are wrapped for a person: read the log as one line, runs of spaces as one.
        if tr '\n' ' ' <"$log" | tr -s ' ' | grep -Eq -- "${WB_EXPECT:?WB_EXPECT}"; then
          echo "mutant: OK, caught with the expected message"
          exit 0
        fi
        echo "mutant: the run failed (exit $status) but without the expected message: $WB_EXPECT"
        exit 1
      fi ;;
    expect-fail)
      case $status in
        0) ;;
        1) saw_wrong=1 ;;
        77) exit 77 ;;
        *) echo "exercise-is-open: the shipped exercise must fail its check cleanly (exit 1), but exited $status"
           exit 1 ;;
      esac ;;
    *) echo "run-lesson.sh: unknown mode '$mode'" >&2; exit 2 ;;
  esac
done

if [ "$mode" = mutant ]; then
  echo "mutant: every run passed: this wrong answer is not caught by the lesson's check"
  exit 1
fi
if [ "$mode" = expect-fail ]; then
  if [ $saw_wrong -eq 1 ]; then
    echo "exercise-is-open: OK, the shipped exercise fails its check as it should"
    exit 0
  fi
  echo "exercise-is-open: the shipped exercise PASSES its check: either it ships solved or the check cannot fail"
  exit 1
fi
exit 0
