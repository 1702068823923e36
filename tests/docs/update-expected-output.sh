#!/usr/bin/env bash
# update-expected-output.sh README BIN_DIR
#
# For maintainers, after a change to what the programs print: rewrites each "$ ./workbook run"
# block of a lesson README that has no "..." line with the program's current output (paths from
# lessons/ or solutions/ on). Blocks with "..." are left alone: edit those by hand. Review the diff
# (timings are this machine's) and run tests/docs/check-expected-output.sh.
set -u
# As ./workbook runs them: the simulator wraps its own lines at 76 columns (see the workbook).
export CUSIM_COLUMNS=76
readme=${1:?README.md} bin=${2:?bin dir} root=$(cd "$(dirname "$0")/../.." && pwd)
lesson=$(basename "$(dirname "$readme")")
out=$(mktemp)
in_block=0 block=()
flush() {
  local cmd=${block[0]} l dots=0
  for l in "${block[@]:1}"; do [ "$l" = "..." ] && dots=1; done
  if [[ $cmd =~ ^\$\ \./workbook\ run\ ([0-9][0-9])(\ --solution)?(\ --\ (.*))?$ ]] && [ $dots = 0 ]; then
    local variant=exercise prog
    [ -n "${BASH_REMATCH[2]}" ] && variant=solution
    for b in sim cpu; do [ -x "$bin/$lesson.$variant.$b" ] && prog="$bin/$lesson.$variant.$b"; done
    printf '%s\n' "$cmd" >>"$out"
    "$prog" ${BASH_REMATCH[4]} 2>&1 | sed "s#$root/##g" >>"$out"
  else
    printf '%s\n' "${block[@]}" >>"$out"
  fi
}
while IFS= read -r line; do
  if [ $in_block = 0 ]; then
    printf '%s\n' "$line" >>"$out"
    [[ $line == '```'* ]] && { in_block=1; block=(); }
  else
    if [[ $line == '```' ]]; then
      flush; printf '%s\n' "$line" >>"$out"; in_block=0
    else
      block+=("$line")
    fi
  fi
done <"$readme"
cp "$out" "$readme"
