#!/usr/bin/env bash
# unit.workbook.export: an instructor exports a student bundle from a tree in which they have
# solved a lesson. The bundle has no solutions/, every exercise as shipped, no solution text that
# the lesson material does not already show, refuses unsafe targets, refuses (and removes) a
# bundle with an exercise that passes its check, or with an answer in one task region, or with an
# exercise that does not build, and builds and passes as a learner's tree: solving a lesson there passes its
# check, and reset works there without git.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

instructor=$SCRATCH/instructor
copy_source_tree "$instructor"
out=$SCRATCH/out.txt
n=$TEST_LESSON_NUMBER
lesson=$(lesson_folder "$instructor" "$n") || exit 1
name=$(exercise_name "$instructor" "$lesson")
solution=$SOURCE_ROOT/solutions/$lesson/solution.${name##*.}

# The instructor opens the workbook (it notes the exercises as shipped), then solves lesson NN.
wb "$instructor" "$out" hint "$n" >/dev/null
cp "$solution" "$instructor/lessons/$lesson/$name"

bundle=$SCRATCH/bundle
wb "$instructor" "$out" export "$bundle"
check "export: exit 0" status_is $? 0
check "export: says the edited exercise was replaced by the shipped one" contains "$out" "lesson $n: your $name is edited"
check "export: no solutions/ in the bundle" test ! -e "$bundle/solutions"
check "export: the workbook script is in the bundle" test -x "$bundle/workbook"
check "export: no build folder in the bundle" test ! -e "$bundle/build"

# Every exercise in the bundle is the shipped one.
for dir in "$SOURCE_ROOT"/lessons/[0-9][0-9]-*/; do
  l=$(basename "$dir")
  for f in "$dir"exercise.cu "$dir"exercise.c; do
    [ -f "$f" ] || continue
    check "export: lessons/$l/${f##*/} is as shipped" cmp -s "$f" "$bundle/lessons/$l/${f##*/}"
  done
done

# No file of the bundle is a copy of a solution.
declare -A solution_sum=()
for f in "$SOURCE_ROOT"/solutions/*/solution.c*; do solution_sum[$(sha256sum <"$f" | cut -d' ' -f1)]=$f; done
copies=$(find "$bundle" -type f -exec sha256sum {} + | while read -r sum f; do
  [ -n "${solution_sum[$sum]:-}" ] && echo "$f"; done)
check "export: no file in the bundle is a copy of a solution${copies:+ ($copies)}" test -z "$copies"

# Solution text: each task region of each solution (lines trimmed, blank lines dropped). It must
# not be in that lesson's exercise, and wherever else it appears in the bundle, the same file of
# the source tree shows it too (lesson text quoting a line on purpose): export adds none.
regions() { # FILE: one region per line, its lines joined by \x1f
  awk '/^[ \t]*(\/\/|\/\*) ---- end of task/ { if (on && length(b) >= 12) print b; on = 0; next }
       /^[ \t]*(\/\/|\/\*) ---- task [0-9]/ { on = 1; b = ""; next }
       on { gsub(/^[ \t]+|[ \t]+$/, ""); if ($0 != "") b = b (b == "" ? "" : "\037") $0 }' "$1"
}
flat() { awk '{ gsub(/^[ \t]+|[ \t]+$/, ""); if ($0 != "") printf "%s%s", (n++ ? "\037" : ""), $0 }' "$1"; }
# Every text file of the bundle (grep -I: not binary, a character at least), flattened as flat
# does, by one grep and one awk (a grep, an awk and a subshell per file were 1,800 processes).
declare -A bundle_text=()
mapfile -d '' -t text_files < <(cd "$bundle" && find . -type f -print0 | xargs -0 -r grep -I -l -Z . -- 2>/dev/null)
while IFS= read -r -d '' f && IFS= read -r -d '' text; do
  bundle_text[${f#./}]=$text
done < <([ ${#text_files[@]} -eq 0 ] || (cd "$bundle" && awk '
  FNR == 1 { if (NR > 1) printf "%s%c%s%c", name, 0, b, 0; name = FILENAME; b = ""; n = 0 }
  { gsub(/^[ \t]+|[ \t]+$/, ""); if ($0 != "") b = b (n++ ? "\037" : "") $0 }
  END { if (NR > 0) printf "%s%c%s%c", name, 0, b, 0 }' "${text_files[@]}"))
region_count=0 leaks=''
for sol in "$SOURCE_ROOT"/solutions/*/solution.c*; do
  l=$(basename "$(dirname "$sol")")
  while IFS= read -r region; do
    region_count=$((region_count + 1))
    ex=lessons/$l/exercise.${sol##*.}
    [[ ${bundle_text[$ex]:-} == *"$region"* ]] && leaks+="$ex holds an answer of ${sol#"$SOURCE_ROOT"/}; "
    for f in "${!bundle_text[@]}"; do
      [[ ${bundle_text[$f]} == *"$region"* ]] || continue
      src=$f
      [[ $f == .workbook/shipped/* ]] && src=lessons/${f#.workbook/shipped/}
      [ -f "$SOURCE_ROOT/$src" ] && [[ $(flat "$SOURCE_ROOT/$src") == *"$region"* ]] && continue
      leaks+="$f shows text of ${sol#"$SOURCE_ROOT"/} that its source does not; "
    done
  done < <(regions "$sol")
done
check "export: compared $region_count solution task regions with the bundle: no leak${leaks:+ ($leaks)}" test -z "$leaks"

# Unsafe targets are refused with one line.
wb "$instructor" "$out" export "$bundle"
check "export into a non-empty folder: exit 2" status_is $? 2
wb "$instructor" "$out" export "$instructor/docs/bundle"
check "export into the workbook itself: exit 2" status_is $? 2

# An exercise solved before the workbook ever saw it (no git, no snapshot): export cannot replace
# it, so it refuses the bundle: the task regions differ from the shipped fingerprints, and the
# exercise passes its check in the bundle. Nothing is left in the target folder.
careless=$SCRATCH/careless
copy_source_tree "$careless"
cp "$solution" "$careless/lessons/$lesson/$name"
echo "// solved by the instructor" >>"$careless/lessons/$lesson/$name" # not a byte copy
cp "$solution" "$careless/docs/answers.cu" # a copy of the solution elsewhere
# What an in-tree grade leaves (issue 25): submissions, a gradebook, a grading file. Outside git,
# export cannot tell them from the course: each is named, and the bundle refused.
mkdir -p "$careless/submissions/amy" "$careless/grades"
echo 'int amy_was_here;' >"$careless/submissions/amy/$name"
echo 'student,03 verdict' >"$careless/grades/grades.csv"
echo '03 points 1 2' >"$careless/lesson-points.txt"
# (a second lesson, broken before the workbook first sees it, for the next case)
other=$([ "$n" = 02 ] && echo 03 || echo 02)
other_lesson=$(lesson_folder "$careless" "$other") || exit 1
other_name=$(exercise_name "$careless" "$other_lesson")
echo 'this is not C;' >>"$careless/lessons/$other_lesson/$other_name"
wb "$careless" "$out" export "$SCRATCH/careless-bundle" --lessons "$n"
check "export of a solved exercise it cannot replace: exit 1" status_is $? 1
check "export of a solved exercise: names the task that differs" \
  grep -q -E "^lesson $n, (task [0-9]+ differs from the shipped exercise: is an answer in it|tasks [0-9, ]+ and [0-9]+ are not as shipped: are answers in them)\?$" "$out"
check "export of a solved exercise: says it passes its check" contains "$out" "lesson $n: its exercise passes its check: an answer is in it"
check "export of a solved exercise: names a copy of the solution" contains "$out" "docs/answers.cu: a copy of lesson $n's solution"
check "export of a solved exercise: says it is refused" contains "$out" "Export refused: answers would ship"
check "export of a solved exercise: no bundle left behind" test ! -e "$SCRATCH/careless-bundle"
for planted in "submissions/amy/$name" grades/grades.csv lesson-points.txt; do
  check "export outside git: names $planted as not a course file" contains "$out" "$planted: not a course file"
done

none_of() { ! "$@"; } # COMMAND...: passes when the command fails (grep: no line matches)
# The same, but the instructor also regenerated the fingerprints (the answer is committed as if
# it were the exercise): the check in the bundle still refuses it. A lesson whose exercise does
# not build there cannot be vouched for, and is refused too. Both lessons are named, one line each.
rm "$careless/docs/answers.cu"
rm -rf "$careless/submissions" "$careless/grades" "$careless/lesson-points.txt"
bash "$careless/shared/workbook/task-checksums.sh" --write "$careless" >/dev/null
mkdir "$SCRATCH/committed-bundle"
wb "$careless" "$out" export "$SCRATCH/committed-bundle" --lessons "$n,$other"
check "export of a committed answer: exit 1" status_is $? 1
check "export of a committed answer: says it passes its check" contains "$out" "lesson $n: its exercise passes its check: an answer is in it"
check "export of a committed answer: the fingerprints agree (the check found it)" \
  none_of grep -q -E "differs from the shipped|are not as shipped|outside the task regions" "$out"
check "export of a committed answer: not a copy of the solution (the check found it)" lacks "$out" "a copy of"
check "export of an exercise that does not build: names it" contains "$out" "lesson $other: its exercise does not build in the bundle"
# The build log it names is in a folder of its own (mktemp -d), not a name beside a removed one.
build_log=$(sed -n 's/^(build log: \(.*\))$/\1/p' "$out" | tail -n 1)
check "export refused: the build log it names is in a private folder of its own" \
  test -f "$build_log" -a "$(stat -c %a "$(dirname "$build_log")" 2>/dev/null)" = 700 \
  -a "$(dirname "$build_log")" != "${TMPDIR:-/tmp}"
case $build_log in */workbook-export-check.*/build.log) rm -rf "${build_log%/build.log}" ;; esac
check "export refused: the given folder is left empty" test -z "$(ls -A "$SCRATCH/committed-bundle")"

# An answer in one task region of an exercise that still fails its check (the other tasks are
# not done): the fingerprints find it.
partial=$SCRATCH/partial
copy_source_tree "$partial"
region_body() { # FILE TASK: the lines strictly inside the task region
  awk -v t="$2" '$0 ~ "---- end of task " t "[^0-9]" { on = 0 } on; $0 ~ "---- task " t "[^0-9]" { on = 1 }' "$1"
}
answer=$(region_body "$solution" 1)
awk -v answer="$answer" '
  /---- end of task 1[^0-9]/ { on = 0 } on { next }
  { print } /---- task 1[^0-9]/ { on = 1; print answer }' "$SOURCE_ROOT/lessons/$lesson/$name" \
  >"$partial/lessons/$lesson/$name"
check "partial answer: the exercise differs from the shipped one" test "$(diff "$SOURCE_ROOT/lessons/$lesson/$name" "$partial/lessons/$lesson/$name" | grep -c '^[<>]')" -gt 0
wb "$partial" "$out" export "$SCRATCH/partial-bundle" --lessons "$n"
check "export of an answer in one task region: exit 1" status_is $? 1
check "export of an answer in one task region: names it" contains "$out" "lesson $n, task 1 differs from the shipped exercise: is an answer in it?"
check "export of an answer in one task region: the exercise still fails" lacks "$out" "passes its check"
check "export of an answer in one task region: no bundle left behind" test ! -e "$SCRATCH/partial-bundle"

# The bundle as a learner's tree: builds, the lesson starts unsolved, solving it passes the check,
# and reset restores it from the bundle's own snapshot (there is no git here).
export WORKBOOK_CMAKE_ARGS="$WORKBOOK_CMAKE_ARGS -DWB_LESSONS=$n"
wb "$bundle" "$out"
check "bundle: the overview builds and runs: exit 0" status_is $? 0
check "bundle: lesson $n not started" grep -q -E "^$n +not started " "$out"
cp "$solution" "$bundle/lessons/$lesson/$name"
wb "$bundle" "$out" check "$n"
check "bundle: solving lesson $n passes its check" status_is $? 0
wb "$bundle" "$out" reset "$n"
check "bundle: reset works" status_is $? 0
check "bundle: reset restores the shipped exercise" cmp -s "$bundle/lessons/$lesson/$name" "$SOURCE_ROOT/lessons/$lesson/$name"
wb "$bundle" "$out" run "$n" --solution
check "bundle: there is no solution to run: exit 2" status_is $? 2

# From a git clone (issue 25): the bundle is git's index of the course, so what the instructor
# left untracked after an in-tree grade (submissions/, grades/, a grading file, a note in a
# lesson) never ships, and export goes on.
if command -v git >/dev/null; then
  clone=$SCRATCH/clone
  copy_source_tree "$clone"
  (cd "$clone" && git init -q && git add -A && git -c user.name=t -c user.email=t@example.com commit -q -m course) ||
    fail "could not make a git clone"
  mkdir -p "$clone/submissions/amy" "$clone/grades"
  echo 'int amy_was_here;' >"$clone/submissions/amy/$name"
  echo 'student,03 verdict' >"$clone/grades/grades.csv"
  echo '03 points 1 2' >"$clone/lesson-points.txt"
  echo 'my notes' >"$clone/lessons/$lesson/notes.txt"
  wb "$clone" "$out" export "$SCRATCH/clone-bundle" --lessons "$n"
  check "export from git: exit 0" status_is $? 0
  check "export from git: says it shipped git's index" contains "$out" "only course files (git's index)"
  for planted in submissions grades lesson-points.txt "lessons/$lesson/notes.txt"; do
    check "export from git: $planted is not in the bundle" test ! -e "$SCRATCH/clone-bundle/$planted"
  done
fi

finish
