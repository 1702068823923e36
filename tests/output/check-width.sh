#!/usr/bin/env bash
# check-width.sh BIN_DIR [COLUMNS]
#
# Every line a learner reads fits a terminal of COLUMNS (default 80) characters: runs each lesson
# program in BIN_DIR (simulator and CPU builds, exercise and solution) with --help, at a few small
# sizes and with a bad flag, and reports every line wider than that, with the program and the
# flags that printed it. Characters are counted, not bytes (UTF-8), and tabs as 8.
set -u
# Environment: WB_WIDTH_SKIP_LESSONS, lesson numbers not to run (e.g. "05 06 07");
# WB_WIDTH_IGNORE, an extended regular expression: matching lines are not counted.
# A line that holds nothing but one path under the source or build folder is as wide as the folder
# the workbook was cloned into, which no wrapping can shorten: it is not counted (the simulator
# names files by their base name, so such a line is rare).
root=$(cd "$(dirname "$0")/../.." && pwd) build=$(cd "${1:?bin dir}/.." && pwd)
bin=${1:?bin dir} columns=${2:-80}
skip_lessons=" ${WB_WIDTH_SKIP_LESSONS:-} " ignore=${WB_WIDTH_IGNORE:-}
export LC_ALL=C.UTF-8
# The simulator wraps its own lines for a person at this width (a terminal gets it by default).
export CUSIM_COLUMNS=$columns
# Lesson 16 compiles its kernels at run time (NVRTC; on the simulator the rewriter and the host
# compiler): the same modules in every run of its programs, each compiled once here
# (nvrtc-cxx-cache.sh, nvrtc-rewrite-cache.sh).
nvrtc_cache=$(mktemp -d "${TMPDIR:-/tmp}/check-width-nvrtc.XXXXXX") || exit 1
trap 'rm -rf "$nvrtc_cache"' EXIT
nvrtc_cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null) # the built-in one
export WB_NVRTC_CACHE=$nvrtc_cache WB_NVRTC_CXX=${CUSIM_CXX:-${nvrtc_cxx:-c++}}
export CUSIM_CXX=$root/tests/output/nvrtc-cxx-cache.sh
# Its rewrites too (nvrtc-rewrite-cache.sh), where the build's rewriter is found.
nvrtc_rewriter=${CUSIM_REWRITER:-$build/shared/sim/rewriter/cusim-rewrite}
if [ -x "$nvrtc_rewriter" ]; then
  export WB_NVRTC_REWRITER=$nvrtc_rewriter CUSIM_REWRITER=$root/tests/output/nvrtc-rewrite-cache.sh
fi
shopt -s nullglob
# The mutants (tests/mutants: wrong answers learners write) show the failure messages.
programs=("$bin"/[0-9][0-9]-*.{exercise,solution}.{sim,cpu} "$bin"/../mutants/[0-9][0-9]-*.mutant.*)
if [ ${#programs[@]} -eq 0 ]; then
  echo "check-width: no lesson programs in $bin"
  exit 1
fi
wide=0
check_output() { # LABEL: reads the output on stdin
  local label=$1 line
  while IFS= read -r line; do
    line=${line//$'\t'/        }
    local token=${line#"${line%%[! ]*}"} # the line without its indentation
    if [[ $token != *" "* && ($token == "$root"/* || $token == "$build"/*) ]]; then continue; fi
    if [ ${#line} -gt "$columns" ] && ! { [ -n "$ignore" ] && [[ $line =~ $ignore ]]; }; then
      wide=$((wide + 1))
      printf '%s (%d columns):\n  %s\n' "$label" "${#line}" "$line"
    fi
  done
}
for program in "${programs[@]}"; do
  name=${program##*/}
  [[ $skip_lessons == *" ${name:0:2} "* ]] && continue
  # --n 100: above a warp, and within every lesson's check sizes (lessons 11 and 17 take n as a
  # matrix's side: 300 cost 6 s a run, 100 a third of a second).
  for flags in "--help" "--n 1 --repeat 1" "--n 100 --repeat 1" "--n -3" "--bogus"; do
    # shellcheck disable=SC2086 # flags split on purpose
    check_output "$name $flags" < <(timeout 60 "$program" $flags 2>&1)
  done
done
if [ $wide -gt 0 ]; then
  echo "check-width: $wide line(s) wider than $columns columns"
  exit 1
fi
echo "check-width: every line of ${#programs[@]} programs fits $columns columns"
