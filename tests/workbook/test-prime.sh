#!/usr/bin/env bash
# unit.workbook.prime: the fixture (workbook_build) that the unit.workbook.* tests which build run
# after. It configures a learner copy of the tree the way they configure theirs and, where the
# copies compile through ccache (WB_CCACHE=ON in WORKBOOK_TEST_CMAKE_ARGS and ccache installed, as
# in CI), builds the harness, the rewriter and the simulator's runtime once (in a learner copy's
# layout and in the one `workbook grade` builds): every later copy then takes those objects from
# the cache instead of compiling them again (lib.sh sets CCACHE_BASEDIR,
# so the copies' different folders hash alike). Without ccache there is nothing to share, and it
# only checks that the copies compile without a launcher.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The tree sits where `workbook grade` puts its pristine copy (OUT/work/tree, built in OUT/work/build),
# so that one tree serves both layouts below.
tree=$SCRATCH/work/tree
copy_source_tree "$tree"
# The workbook's generator: Ninja where it is installed (ccache keys the compile's folder, which
# differs between Make and Ninja). In CI the learner layout's compiles are then build-ci's own
# commands (build-ci is one folder below the tree too), and .ci/run's ccache serves them.
learner_generator=()
if grep -q -F -e 'generator=(-G Ninja)' "$SOURCE_ROOT/workbook" && command -v ninja >/dev/null; then
  learner_generator=(-G Ninja)
fi
# shellcheck disable=SC2086 # WORKBOOK_CMAKE_ARGS is a list of arguments, as the workbook splits it
(cd "$tree" && cmake --preset default "${learner_generator[@]}" -B "$tree/build" $WORKBOOK_CMAKE_ARGS -DWB_LESSONS=01) \
  >"$SCRATCH/configure.log" 2>&1
check "a learner copy configures" status_is $? 0

uses_ccache=no
if [[ " $WORKBOOK_CMAKE_ARGS " == *" -DWB_CCACHE=ON "* ]] && command -v ccache >/dev/null; then
  uses_ccache=yes
fi
compiles=$(grep -h -F ccache "$tree/build/CMakeFiles/rules.ninja" \
  "$tree/build/shared/sim/runtime/CMakeFiles/cusim.dir/build.make" 2>/dev/null | head -n 3)
if [ $uses_ccache = yes ]; then
  check "the copy compiles through ccache" grep -q ccache <<<"$compiles"
  (cd "$tree" && timeout 1500 cmake --build build -j 2 --target wb_harness_sim cusim-rewrite cusim) \
    >"$SCRATCH/build.log" 2>&1
  check "the harness, the rewriter and the runtime build once for every copy" status_is $? 0
  # `workbook grade` (unit.workbook.export, hidden, layouts, race, template, grade) builds its own
  # pristine tree in OUT/work/build, beside OUT/work/tree: the sources are ../tree/... from there,
  # not ../... as from a learner's TREE/build, so ccache keys them apart. Build that layout once
  # too (grade configures with WB_LESSONS and WB_TEST_TIMEOUT, which change no compile).
  # The generator too must be grade's (ccache keys the compile's folder, which differs between
  # Make and Ninja): Ninja where grade.sh asks for it and it is installed.
  grade_generator=()
  if grep -q -F -e 'generator=(-G Ninja)' "$SOURCE_ROOT/shared/workbook/grade.sh" &&
    command -v ninja >/dev/null; then
    grade_generator=(-G Ninja)
  fi
  # shellcheck disable=SC2086
  (cd "$tree" && cmake --preset default "${grade_generator[@]}" -B "$SCRATCH/work/build" $WORKBOOK_CMAKE_ARGS -DWB_LESSONS=01 \
    -DWB_TEST_TIMEOUT=60 && timeout 1500 cmake --build "$SCRATCH/work/build" -j 2 \
    --target wb_harness_sim cusim-rewrite cusim) >"$SCRATCH/build-grade.log" 2>&1
  check "the same for the build that workbook grade makes (OUT/work/build)" status_is $? 0
  ccache --show-stats 2>/dev/null | sed 's/^/    | /' | head -n 12
else
  check "without ccache the copy compiles without a launcher" test -z "$compiles"
  echo "    (no ccache for the copies: nothing to build ahead; each test builds its own)"
fi
finish
