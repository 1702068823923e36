#!/usr/bin/env bash
# unit.workbook.template: the template lesson of docs/authoring.md (docs/template/) passes every
# project check as it is. Installed in a copy of the tree as lesson 99: it is clang-format clean;
# the maintainer build (ci preset) builds it with warnings as errors and its checks pass (the
# solution, exercise-is-open, skeleton, its README's expected output, the 80-column rule); after
# task-checksums.sh --write the fingerprints match; the learner's check fails as shipped; a solved
# copy is graded 3/3 with its grading.txt (task 1 worth 2, a hidden input that runs); and export
# --lessons 99 accepts the bundle without the grading file.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

tree=$SCRATCH/tree
copy_source_tree "$tree"
out=$SCRATCH/out.txt
template=$SOURCE_ROOT/docs/template
lesson=99-template
cp -r "$template/lessons/$lesson" "$tree/lessons/"
cp -r "$template/solutions/$lesson" "$tree/solutions/"

if command -v clang-format >/dev/null; then
  (cd "$tree" && clang-format --dry-run -Werror lessons/$lesson/*.c lessons/$lesson/*.h lessons/$lesson/*.cu \
    solutions/$lesson/solution.cu) >"$out" 2>&1
  check "template: clang-format clean" status_is $? 0
fi

# The maintainer's build and checks, lesson 99 only, with the ci preset's generator (Ninja, where it
# is installed; Make otherwise). Its compiles are then CI's own build-ci's (one folder below the
# tree, the same flags and relative paths), so where the copies use ccache (CI) the simulator's
# runtime comes from the cache instead of being compiled again (with Make, 33 s of CPU in a cold
# CI: Make compiles in each target's folder). The ci preset's settings (warnings as errors, the
# maintainer's tests) are what this checks.
generator=()
command -v ninja >/dev/null || generator=(-G "Unix Makefiles")
read -r -a cmake_args <<<"$WORKBOOK_CMAKE_ARGS"
(cd "$tree" && cmake --preset ci "${generator[@]}" -DWB_LESSONS=99 "${cmake_args[@]}") >"$out" 2>&1
check "template: the ci preset configures" status_is $? 0
targets=$(cd "$tree" && cmake --build build-ci --target help 2>/dev/null | grep -o -E "$lesson\.[a-z]+\.(sim|cuda)" | sort -u | paste -sd ' ')
# shellcheck disable=SC2086 # a list of target names
(cd "$tree" && cmake --build build-ci -j 2 --target $targets) >"$out" 2>&1
check "template: builds with warnings as errors ($targets)" status_is $? 0
(cd "$tree" && ctest --test-dir build-ci -R "^($lesson\\.|unit\\.docs\\.$lesson\$|unit\\.output\\.width\$)" --output-on-failure) >"$out" 2>&1
status=$?
sed 's/^/    | /' "$out" | grep -E 'Test +#|tests passed'
check "template: its checks pass" status_is $status 0
for name in solution.sim exercise-is-open skeleton; do
  check "template: $lesson.$name ran" grep -q -E "$lesson\\.$name \\.+ +Passed" "$out"
done
check "template: its README's expected output ran" grep -q -E "unit\\.docs\\.$lesson \\.+ +Passed" "$out"
check "template: the 80-column rule ran" grep -q -E 'unit\.output\.width \.+ +Passed' "$out"
bash "$tree/shared/workbook/task-checksums.sh" --write "$tree" >/dev/null &&
  bash "$tree/shared/workbook/task-checksums.sh" --check "$tree" >"$out" 2>&1
check "template: fingerprints written and matching" status_is $? 0

# The learner's loop and the instructor's commands.
wb "$tree" "$out" check 99
check "template: the shipped exercise fails its check" status_is $? 1
check "template: ... naming the tasks" contains "$out" "tasks 1 and 2"
subs=$SCRATCH/submissions
mkdir -p "$subs/sol/lessons/$lesson"
cp "$template/solutions/$lesson/solution.cu" "$subs/sol/lessons/$lesson/exercise.cu"
wb "$tree" "$out" grade "$subs" --lessons 99 --output "$SCRATCH/results"
check "template: grade exits 0" status_is $? 0
check "template: a solved copy gets 3 of 3 (task 1 is worth 2)" grep -q -E '^  sol +99 pass \[3/3\]' "$out"
check "template: its hidden input ran" grep -q -E "^==> $lesson\\.exercise\\.sim --n 200003\$" "$SCRATCH/results/logs/sol/$lesson.log"
wb "$tree" "$out" export "$SCRATCH/bundle" --lessons 99
check "template: export accepts it" status_is $? 0
check "template: no grading file in the bundle" test ! -e "$SCRATCH/bundle/lessons/$lesson/grading.txt"
finish
