#!/usr/bin/env bash
# seeded-inputs.sh TIMEOUT DATA PROGRAM ARGSET...: a grade's seeded run meets inputs no table knows.
#
# `workbook grade` adds one run to every lesson: the argument set it picks (grade_inputs in
# shared/workbook/grade.sh: "--n 1000" when the lesson tests it, else the last set) with
# "--seed S", S its own. This runs PROGRAM (a lesson's solution) on that set with two seeds and
# WB_INPUT_DIGEST set (the harness then appends "size N data HEX inputs K" at its verdict,
# shared/harness/wb.c), and checks:
#   - both runs PASS (a correct answer passes whatever the seed);
#   - each checks a size of its own: not the --n given (a size a table of the shipped sizes knows),
#     and not the other seed's;
#   - DATA "seeded": the inputs made from the seed differ between the seeds; DATA "from-n": the
#     lesson's data is a function of n alone (i*i, arange, the numbers below n), so the size is
#     what changes it (the lesson's CMakeLists.txt says why).
# Exit 0 when all hold, 1 naming the first that does not, 77 when the program has no device.
set -u
timeout_s=$1 data=$2 program=$3
shift 3
case $data in seeded | from-n) ;; *) echo "seeded-inputs.sh: DATA is seeded or from-n, not '$data'" >&2; exit 2 ;; esac

argset=''
for set in "$@"; do [ "$set" = "--n 1000" ] && argset=$set; done
if [ -z "$argset" ]; then
  for set in "$@"; do [[ " $set " == *" --seed "* ]] || argset=$set; done
fi
[ -n "$argset" ] || { echo "FAIL: no argument set to seed"; exit 1; }
read -r -a words <<<"$argset"
given=''
for ((i = 0; i < ${#words[@]}; ++i)); do [ "${words[i]}" = "--n" ] && given=${words[i + 1]:-}; done

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
name=$(basename "$program")
declare -a sizes=() digests=()
for seed in 4242 917; do
  : >"$scratch/digest"
  WB_INPUT_DIGEST=$scratch/digest timeout "$timeout_s" "$program" "${words[@]}" --seed "$seed" \
    >"$scratch/out" 2>&1
  status=$?
  [ "$status" -eq 77 ] && { echo "SKIP: $name has no device"; exit 77; }
  if [ "$status" -ne 0 ] || ! tail -n 1 "$scratch/out" | grep -q '^PASS$'; then
    tail -n 5 "$scratch/out"
    echo "FAIL: $name $argset --seed $seed did not pass (exit $status): a solution passes every seed"
    exit 1
  fi
  line=$(tail -n 1 "$scratch/digest")
  if ! [[ $line =~ ^size\ (-?[0-9]+)\ data\ ([0-9a-f]{16})\ inputs\ ([0-9]+)$ ]]; then
    echo "FAIL: $name --seed $seed wrote no input digest (does it end with wb_finish?)"
    exit 1
  fi
  sizes+=("${BASH_REMATCH[1]}") digests+=("${BASH_REMATCH[2]}:${BASH_REMATCH[3]}")
  echo "$name $argset --seed $seed: size ${BASH_REMATCH[1]}, inputs ${BASH_REMATCH[2]}" \
    "(${BASH_REMATCH[3]} recorded)"
done

fail() { echo "FAIL: $name: $*"; exit 1; }
[ "${sizes[0]}" != -1 ] || fail "the size does not come from the seed (no wb_seeded_n)"
for size in "${sizes[@]}"; do
  [ "$size" != "$given" ] || fail "--seed checked the shipped size $given: a table of sizes passes"
done
[ "${sizes[0]}" != "${sizes[1]}" ] || fail "two seeds checked one size (${sizes[0]})"
if [ "$data" = seeded ]; then
  [ "${digests[0]#*:}" != 0 ] || fail "no input made from the seed was recorded (wb_fill_*)"
  [ "${digests[0]}" != "${digests[1]}" ] || fail "two seeds gave the same input data"
fi
echo "PASS: $name checks a size (and data) of each seed's own"
