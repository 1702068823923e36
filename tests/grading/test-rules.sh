#!/usr/bin/env bash
# unit.grading.rules: the submission rules (shared/workbook/submission-rules.sh) on their own, fast
# (no grading build). No false alarm: every lesson's reference solution passes against its shipped
# exercise, and so does the exercise itself, a solution using the harness's and the simulator's
# macros in a region, and lesson 15's `signal` array. Every cheat of the corpus whose expected
# verdict is a refusal (its setup.sh run first, where it has one) is refused here too, with the
# reason its expect file names. The one reader of task regions (regions_read) rebuilds each solution from the
# exercise unchanged, and splices one task of a donor into the reference.
source "$(dirname "${BASH_SOURCE[0]}")/../workbook/lib.sh"
rules=$SOURCE_ROOT/shared/workbook/submission-rules.sh
# shellcheck source=../../shared/cmake/skeleton-guard.sh
source "$SOURCE_ROOT/shared/cmake/skeleton-guard.sh"
passes() { bash "$rules" "$1" "$2" >"$SCRATCH/rules.txt" 2>&1 || { sed 's/^/    /' "$SCRATCH/rules.txt"; return 1; }; }
refused() { # SHIPPED FILE ERE: refused, the first reason matching ERE (after "refused: ")
  bash "$rules" "$1" "$2" >"$SCRATCH/rules.txt" 2>&1 && { echo "    not refused"; return 1; }
  sed 's/^/refused: /' "$SCRATCH/rules.txt" | head -n 1 | grep -q -E -- "$3" || { sed 's/^/    /' "$SCRATCH/rules.txt"; return 1; }
}

for exercise in "$SOURCE_ROOT"/lessons/[0-9][0-9]-*/exercise.c*; do
  lesson=${exercise%/*}
  lesson=${lesson##*/}
  solution=$(ls "$SOURCE_ROOT/solutions/$lesson"/solution.c* 2>/dev/null | head -n 1)
  check "$lesson: the shipped exercise passes the rules" passes "$exercise" "$exercise"
  [ -n "$solution" ] || continue
  check "$lesson: the reference solution passes the rules (no false alarm)" passes "$exercise" "$solution"
  check "$lesson: rebuilding the solution from the exercise gives the solution" \
    cmp -s <(regions_read "$exercise" "$solution" rebuild) "$solution"
done

# Macros an honest answer may use: the harness's CUDA_CHECK (wb_cuda_check), CUDA's built-ins
# (the simulator's cusim_tls), in a region of lesson 03's solution.
l03=$SOURCE_ROOT/lessons/03-hello-copy/exercise.cu s03=$SOURCE_ROOT/solutions/03-hello-copy/solution.cu
line=$(grep -n -- '---- end of task 3' "$s03" | cut -d: -f1)
sed "$((line - 1))a\\  CUDA_CHECK(cudaGetLastError());" "$s03" >"$SCRATCH/macros.cu"
check "a region using CUDA_CHECK passes (no false alarm)" passes "$l03" "$SCRATCH/macros.cu"
# Lesson 15 names an array `signal`: using it passes, calling signal() does not.
l15=$SOURCE_ROOT/lessons/15-debugging/exercise.cu s15=$SOURCE_ROOT/solutions/15-debugging/solution.cu
line=$(grep -n -- '---- end of task 1' "$s15" | cut -d: -f1)
sed "$((line - 1))a\\  signal(11, 0);" "$s15" >"$SCRATCH/signal.cu"
check "lesson 15: calling signal() in a region is refused" refused "$l15" "$SCRATCH/signal.cu" 'uses signal'
# Every spelling is refused where the compiler sees it: __CONCAT from sys/cdefs.h.
sed "$((line - 1))a\\  __CONCAT(sig, nal)(11, 0);" "$s15" >"$SCRATCH/signal2.cu"
check "lesson 15: signal() spelt with __CONCAT is refused" refused "$l15" "$SCRATCH/signal2.cu" 'uses signal.*as the compiler sees it'

# The corpus' refusals, here without a build.
# Each setup.sh gets a copy of the course as its TREE: some plant secrets in it (a grading.txt, a
# .git/HEAD), which must never land in the checkout this test runs from.
head_before=$(cat "$SOURCE_ROOT/.git/HEAD" 2>/dev/null)
setup_tree=$SCRATCH/setup-tree
mkdir -p "$setup_tree/shared" "$setup_tree/tests"
cp -r "$SOURCE_ROOT/lessons" "$SOURCE_ROOT/solutions" "$setup_tree/"
cp -r "$SOURCE_ROOT/shared/cmake" "$setup_tree/shared/"
cp -r "$SOURCE_ROOT/tests/mutants" "$setup_tree/tests/"
for dir in "$SOURCE_ROOT"/tests/grading/cheats/*/; do
  name=${dir%/}
  name=${name##*/}
  [ -f "$dir/expect" ] || continue
  want=$(head -n 1 "$dir/expect")
  [[ $want == "^refused"* ]] || continue
  student=$SCRATCH/cheats/$name
  mkdir -p "$student"
  cp -r "$dir"/[0-9][0-9]-* "$student/" 2>/dev/null
  if [ -f "$dir/setup.sh" ]; then
    STUDENT=$student SUBMISSIONS=$SCRATCH/cheats TREE=$setup_tree bash "$dir/setup.sh" || continue
  fi
  file=$(ls "$student"/[0-9][0-9]-*/exercise.c* 2>/dev/null | head -n 1)
  # A link is refused by grade before the rules (screen_submission), not by them.
  [ -n "$file" ] && [ ! -L "$file" ] || continue
  lesson=${file%/*}
  lesson=${lesson##*/}
  shipped=$(ls "$SOURCE_ROOT/lessons/$lesson"/exercise.c* | head -n 1)
  check "cheat $name: refused ($want)" refused "$shipped" "$file" "$want"
done

# The one reader: a task of a donor spliced into the reference; markers in the wrong place.
sed "$(grep -n -- '---- task 2' "$l03" | cut -d: -f1)a\\  /* mine */" "$l03" >"$SCRATCH/donor.cu"
WB_REGIONS_BASE=$s03 regions_read "$l03" "$SCRATCH/donor.cu" splice 2 >"$SCRATCH/spliced.cu"
check "splice: task 2 comes from the donor" contains "$SCRATCH/spliced.cu" '/* mine */'
check "splice: task 3 stays the reference's" test "$(regions_read "$l03" "$SCRATCH/spliced.cu" body 3)" = "$(regions_read "$l03" "$s03" body 3)"
sed "$(grep -n -- '---- end of task 1' "$l03" | cut -d: -f1)d" "$l03" >"$SCRATCH/missing.cu"
check "a missing end marker is refused, naming the marker" refused "$l03" "$SCRATCH/missing.cu" 'task markers: .*(missing|out of its place)'
sed 's/$/\r/' "$l03" >"$SCRATCH/crlf.cu"
check "CRLF line ends are refused at the first marker" refused "$l03" "$SCRATCH/crlf.cu" ':17: task markers: .*carriage return'
check "the skeleton guard uses the reader: a CR on a solution marker fails" \
  bash -c '! bash "$1" "$2" "$3" >/dev/null' _ "$SOURCE_ROOT/shared/cmake/skeleton-guard.sh" "$l03" "$SCRATCH/crlf.cu"
# A \ then a space or CR at a line's end is a continuation to GCC: the lexer sees it too.
line=$(grep -n -- '---- task 2' "$l03" | cut -d: -f1)
{ head -n "$line" "$l03"; printf '  int x = 0; // note \\ \r\n'; tail -n +"$((line + 1))" "$l03"; } >"$SCRATCH/continued.cu"
check "a \\ then a space and a CR continues the line: refused" refused "$l03" "$SCRATCH/continued.cu" 'a line continuation'
# A region's macros that multiply tokens: refused, not read for minutes (a line cap, a time limit).
line=$(grep -n -- '---- task 2' "$l03" | cut -d: -f1)
{ head -n "$line" "$l03"; echo '#define A0 x x'; for i in $(seq 1 18); do echo "#define A$i A$((i - 1)) A$((i - 1))"; done
  echo '  int A18;'; tail -n +"$((line + 1))" "$l03"; } >"$SCRATCH/bomb.cu"
check "a macro bomb in a region is refused" refused "$l03" "$SCRATCH/bomb.cu" 'characters long'
# The setup scripts planted their secrets in the copy, not in this checkout.
check "the checkout has no lesson grading.txt planted by a setup.sh" test ! -e "$SOURCE_ROOT/lessons/03-hello-copy/grading.txt"
check "the checkout's .git/HEAD is as it was" test "$(cat "$SOURCE_ROOT/.git/HEAD" 2>/dev/null)" = "$head_before"
finish
