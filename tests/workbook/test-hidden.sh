#!/usr/bin/env bash
# unit.workbook.hidden: hidden inputs. A student hard-codes lesson 03's largest test size
# (copies only i < 300000): every shipped input passes. The instructor adds a hidden input
# (`input --n 400003` in lessons/03-hello-copy/grading.txt): grade runs it with the shipped ones
# and the answer fails there; the log says which inputs ran. Each grade run adds a seed of its
# own (two runs, two seeds; --seed repeats one). The hidden input never ships: export leaves the
# grading file out, and no file of the bundle holds it.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

tree=$SCRATCH/tree
copy_source_tree "$tree"
out=$SCRATCH/out.txt
lesson=03-hello-copy
solution=$SOURCE_ROOT/solutions/$lesson/solution.cu
subs=$SCRATCH/submissions
mkdir -p "$subs/honest/lessons/$lesson" "$subs/hardcoded/lessons/$lesson"
cp "$solution" "$subs/honest/lessons/$lesson/exercise.cu"
sed 's/if (i < n) out\[i\] = in\[i\];/if (i < 300000 \&\& i < n) out[i] = in[i];/' "$solution" >"$subs/hardcoded/lessons/$lesson/exercise.cu"
check "the hard-coded answer differs from the solution" bash -c '! cmp -s "$1" "$2"' _ "$solution" "$subs/hardcoded/lessons/$lesson/exercise.cu"

results=$SCRATCH/results
wb "$tree" "$out" grade "$subs" --lessons 03 --output "$results"
check "without hidden inputs: exit 0" status_is $? 0
check "without hidden inputs: the hard-coded answer passes" grep -q -E '^  hardcoded +03 pass' "$out"
seed1=$(sed -n 's/^This grade.s seed: \([0-9]*\).*/\1/p' "$out")

printf '# hidden inputs of lesson 03\ninput --n 400003\n' >"$tree/lessons/$lesson/grading.txt"
wb "$tree" "$out" grade "$subs" --lessons 03 --output "$results"
check "with a hidden input: exit 0" status_is $? 0
check "the hidden input catches the hard-coded answer" grep -q -E "^  hardcoded +03 wrong-result: .*--n 400003" "$out"
check "the honest answer still passes" grep -q -E '^  honest +03 pass' "$out"
log=$results/logs/hardcoded/$lesson.log
check "the log names the hidden input" grep -q -x 'inputs: hidden: --n 400003' "$log"
check "the log shows it ran" grep -q -E "^==> $lesson\.exercise\.sim --n 400003$" "$log"
check "the log names the shipped inputs" grep -q -E '^inputs: shipped: --n 1; ' "$log"
seed2=$(sed -n 's/^This grade.s seed: \([0-9]*\).*/\1/p' "$out")
check "each grade run has a seed of its own ($seed1, $seed2)" test -n "$seed1" -a -n "$seed2" -a "$seed1" != "$seed2"
check "the honest log ran this run's seed" grep -q -E "^==> $lesson\.exercise\.sim --n 1000 --seed $seed2$" "$results/logs/honest/$lesson.log"
wb "$tree" "$out" grade "$subs" --lessons 03 --output "$results" --seed 4242
check "--seed repeats a seed" grep -q -E "^==> $lesson\.exercise\.sim --n 1000 --seed 4242$" "$results/logs/honest/$lesson.log"
check "the grading file is not in the graded tree" test ! -e "$results/work/tree/lessons/$lesson/grading.txt"

bundle=$SCRATCH/bundle
wb "$tree" "$out" export "$bundle" --lessons 03
check "export: exit 0" status_is $? 0
check "export: no grading file in the bundle" test ! -e "$bundle/lessons/$lesson/grading.txt"
check "export: no file of the bundle holds the hidden input" bash -c '! grep -r -q -F -e "400003" "$1"' _ "$bundle"
finish
