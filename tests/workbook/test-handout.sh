#!/usr/bin/env bash
# unit.workbook.handout: `export DIR --lessons 03-05` (a range) makes a handout of three lessons.
# The bundle holds lessons 03, 04 and 05 and nothing of the project's machinery (no solutions/,
# tests/, .ci/, maintainer docs, grading files, ci presets); its README names the student's
# commands, and each of them works in the bundle (run here, with lesson 03 solved so the checks
# can pass). A lesson that does not exist is refused with one line. The Chinese pages of the chosen
# lessons and docs/zh-CN/ (but its instructor guide) ship; the top README.zh-CN.md does not.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

instructor=$SCRATCH/instructor
copy_source_tree "$instructor"
out=$SCRATCH/out.txt
printf 'points 1 2\ninput --n 5003\n' >"$instructor/lessons/03-hello-copy/grading.txt"
# The Chinese pages (issue 28): a chosen lesson's ship, a lesson not chosen stays home. Stand-ins
# in this copy where a translation has not landed yet.
for page in lessons/03-hello-copy/README.zh-CN.md lessons/03-hello-copy/hints.zh-CN.md \
  lessons/06-chained-kernels/README.zh-CN.md docs/zh-CN/getting-started.md \
  docs/zh-CN/troubleshooting.md docs/zh-CN/instructor-guide.md; do
  [ -f "$instructor/$page" ] || printf '# 中文\n' >"$instructor/$page"
done

wb "$instructor" "$out" export "$SCRATCH/nope" --lessons 03,42
check "export --lessons 03,42: exit 2" status_is $? 2
check "... says there is no lesson 42" contains "$out" "there is no lesson 42"
check "... and leaves nothing" test ! -e "$SCRATCH/nope"

bundle=$SCRATCH/bundle
wb "$instructor" "$out" export "$bundle" --lessons 03-05
check "export --lessons 03-05: exit 0" status_is $? 0
lessons=$(cd "$bundle/lessons" && ls -d [0-9][0-9]-* | cut -c1-2 | paste -sd ' ')
check "the bundle holds lessons 03 04 05 only ($lessons)" test "$lessons" = "03 04 05"
for path in solutions tests .ci docs/architecture.md docs/instructor-guide.md docs/results.md \
  docs/authoring.md docs/recipes docs/template .clang-format lessons/03-hello-copy/grading.txt build; do
  check "the bundle has no $path" test ! -e "$bundle/$path"
done
check "no file in the bundle mentions the hidden input" bash -c '! grep -r -q -F -e "--n 5003" "$1"' _ "$bundle"
check "the bundle's presets are the learner's only" bash -c '! grep -q "\"ci\"" "$1/CMakePresets.json"' _ "$bundle"
check "the learner's docs are there" test -f "$bundle/docs/getting-started.md"
for page in lessons/03-hello-copy/README.zh-CN.md lessons/03-hello-copy/hints.zh-CN.md \
  docs/zh-CN/getting-started.md docs/zh-CN/troubleshooting.md docs/zh-CN/glossary.md; do
  check "the Chinese page $page is there" cmp -s "$bundle/$page" "$instructor/$page"
done
for page in README.zh-CN.md docs/zh-CN/instructor-guide.md lessons/06-chained-kernels; do
  check "the bundle has no $page" test ! -e "$bundle/$page"
done
check "the README points a Chinese reader to docs/zh-CN/" contains "$bundle/README.md" "docs/zh-CN/getting-started.md"
check "the README lists the three lessons" test "$(grep -c -E '^\| 0[345]-' "$bundle/README.md")" -eq 3
check "the README does not send the student to the project's tests" lacks "$bundle/README.md" "--preset ci"

# Every command of the README's command block, run in the bundle, in order.
mapfile -t commands < <(awk '/^```/ { n++; next } n == 1' "$bundle/README.md" | sed 's/ *#.*//' | grep .)
check "the README names at least six commands (${#commands[@]})" test "${#commands[@]}" -ge 6
cp "$SOURCE_ROOT/solutions/03-hello-copy/solution.cu" "$bundle/lessons/03-hello-copy/exercise.cu"
export WORKBOOK_CMAKE_ARGS="$WORKBOOK_CMAKE_ARGS"
for command in "${commands[@]}"; do
  read -r -a words <<<"$command"
  if [ "${words[0]}" = ./workbook ]; then
    wb "$bundle" "$out" "${words[@]:1}"
  else
    (cd "$bundle" && timeout 600 "${words[@]}") >"$out" 2>&1
  fi
  status=$?
  check "README command works in the bundle: $command (exit $status)" status_is $status 0
done
check "reset (a README command) restored the shipped exercise" \
  cmp -s "$bundle/lessons/03-hello-copy/exercise.cu" "$SOURCE_ROOT/lessons/03-hello-copy/exercise.cu"
finish
