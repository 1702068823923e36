#!/usr/bin/env bash
# check-expected-output.sh README BIN_DIR
#
# A lesson README's "expected output" must be what the program prints. Every fenced block whose
# first line is a command of the form
#     $ ./workbook run NN [--solution] [-- FLAGS...]
# (or `profile`: the program runs with the profiler on, CUSIM_PROFILE=1, and --repeat 1 when no
# FLAGS are given, as the workbook runs it) is checked: the lesson's simulator (or CPU) program runs with FLAGS, and each line of the block
# must appear in its output, in order. Numbers are compared as "a number" (timings and core
# counts differ per machine), paths from their lessons/ or solutions/ folder on, and a line that
# is only "..." stands for lines left out.
set -u
# As ./workbook runs them: the simulator wraps its own lines at 76 columns (see the workbook).
export CUSIM_COLUMNS=76
readme=${1:?README.md} bin_dir=${2:?bin dir}
lesson=$(basename "$(dirname "$readme")")
number=${lesson:0:2}

normalize() {
  # Numbers are compared only on lines that carry a measurement (a time, a rate, a speedup,
  # a core count): elsewhere a changed number is a changed result.
  sed -E -e 's#[^ ]*/(lessons|solutions)/#\1/#g' \
         -e '/[0-9] ?(ms|s|us|ns|GB\/s|MB\/s|GiB\/s|x|%)([^[:alnum:]]|$)|worker threads|seconds/ s/[-+]?[0-9]+([.,:][0-9]+)*([eE][-+]?[0-9]+)?/#/g' \
         -e 's/[[:space:]]+/ /g; s/^ //; s/ $//'
}

blocks=0 failures=0
block=() in_block=0
check_block() {
  local command=${block[0]} variant=exercise flags="" backend profile=0
  [[ $command =~ ^\$\ \./workbook\ (run|profile)\ ([0-9][0-9])(\ --solution)?(\ --\ (.*))?$ ]] || return 0
  [ "${BASH_REMATCH[2]}" = "$number" ] || { echo "$readme: block runs lesson ${BASH_REMATCH[2]}"; failures=$((failures + 1)); return; }
  [ -n "${BASH_REMATCH[3]}" ] && variant=solution
  flags=${BASH_REMATCH[5]}
  if [ "${BASH_REMATCH[1]}" = profile ]; then
    profile=1
    [ -n "$flags" ] || flags="--repeat 1"
  fi
  blocks=$((blocks + 1))
  local program=""
  for backend in sim cpu; do
    [ -x "$bin_dir/$lesson.$variant.$backend" ] && program="$bin_dir/$lesson.$variant.$backend"
  done
  if [ -z "$program" ]; then
    echo "$readme: no $variant program for $lesson in $bin_dir"
    failures=$((failures + 1))
    return
  fi
  # shellcheck disable=SC2086 # FLAGS are split on purpose
  local output
  output=$(CUSIM_PROFILE=$profile timeout 300 "$program" $flags 2>&1 | normalize)
  local want line position=0 missing=""
  local -a got_lines
  mapfile -t got_lines <<<"$output"
  for line in "${block[@]:1}"; do
    want=$(normalize <<<"$line")
    [ -z "$want" ] || [ "$want" = "..." ] && continue
    local found=0
    while [ $position -lt ${#got_lines[@]} ]; do
      if [ "${got_lines[$position]}" = "$want" ]; then found=1; position=$((position + 1)); break; fi
      position=$((position + 1))
    done
    if [ $found -eq 0 ]; then missing=$line; break; fi
  done
  if [ -n "$missing" ]; then
    echo "$readme: the block '${command}' shows a line the program does not print (in that order):"
    echo "    $missing"
    echo "  the program printed:"
    CUSIM_PROFILE=$profile timeout 300 "$program" $flags 2>&1 | sed 's/^/    | /' | head -60
    failures=$((failures + 1))
  else
    echo "ok: ${command}"
  fi
}

while IFS= read -r text || [ -n "$text" ]; do
  if [ $in_block -eq 0 ] && [[ $text =~ ^\`\`\` ]]; then in_block=1; block=(); continue; fi
  if [ $in_block -eq 1 ] && [[ $text =~ ^\`\`\` ]]; then
    in_block=0
    [ ${#block[@]} -gt 0 ] && check_block
    continue
  fi
  [ $in_block -eq 1 ] && block+=("$text")
done <"$readme"

if [ $blocks -eq 0 ]; then
  echo "$readme: no expected-output block (a fenced block starting with '\$ ./workbook run $number ...')"
  exit 1
fi
[ $failures -eq 0 ] || exit 1
echo "expected output: $blocks block(s) of $readme match the programs"
