#!/usr/bin/env bash
# make-mutant.sh SED_SCRIPT SOLUTION OUTPUT
#
# Writes OUTPUT: the lesson's solution with one plausible wrong answer put in by a sed script
# (tests/mutants/NN-slug/NAME.sed). A script that no longer changes the solution is an error, so
# a mutant test can never quietly test the correct solution.
set -eu
script=${1:?sed script} solution=${2:?solution} output=${3:?output}
mkdir -p "$(dirname "$output")"
sed -f "$script" "$solution" > "$output.tmp"
if cmp -s "$solution" "$output.tmp"; then
  rm -f "$output.tmp"
  echo "make-mutant.sh: $script no longer changes $(basename "$solution"): update the mutant" >&2
  exit 1
fi
mv "$output.tmp" "$output"
