#!/usr/bin/env bash
# unit.workbook.nvcc-cache: nvcc-check.sh keeps nvcc's verdict by content hash (WB_NVCC_CACHE)
# and gives it again only while nothing it depends on changed. A stand-in nvcc counts its calls
# and rejects a file that says REJECT, so this runs without the toolkit (no build).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

fake=$SCRATCH/bin/nvcc
mkdir -p "$SCRATCH/bin" "$SCRATCH/lesson" "$SCRATCH/harness"
cat >"$fake" <<'NVCC'
#!/usr/bin/env bash
[ "${1:-}" = --version ] && { echo "fake nvcc, release 13.0"; exit 0; }
# A plan (--dryrun) compiles nothing: not counted, and with no steps nvcc-check.sh runs nvcc itself.
[[ " $* " == *" --dryrun "* ]] && exit 0
echo call >>"${0%/*}/calls"
for a in "$@"; do src=$a; [[ $a == *.cu ]] && break; done
if grep -q REJECT "$src"; then echo "$src(3): error: identifier \"REJECT\" is undefined" >&2; exit 1; fi
exit 0
NVCC
chmod +x "$fake"
src=$SCRATCH/lesson/exercise.cu
printf '#include "lesson.h"\nint x;\n' >"$src"
echo '/* lesson.h */' >"$SCRATCH/lesson/lesson.h"
echo '/* wb.h */' >"$SCRATCH/harness/wb.h"
export WB_NVCC_CACHE=$SCRATCH/cache
calls() { wc -l <"$SCRATCH/bin/calls"; }
nvcc_check() { # OUT: nvcc-check.sh on the exercise; returns its status
  bash "$SOURCE_ROOT/shared/cmake/nvcc-check.sh" "$fake" "$src" "-I$SCRATCH/lesson" "-I$SCRATCH/harness" >"$1" 2>&1
}

nvcc_check "$SCRATCH/1.txt"
check "first check: nvcc accepts (exit 0)" status_is $? 0
check "first check: nvcc was run" status_is "$(calls)" 1
nvcc_check "$SCRATCH/2.txt"
check "unchanged: the kept verdict, exit 0" status_is $? 0
check "unchanged: nvcc not run again" status_is "$(calls)" 1
check "unchanged: the same lines" cmp -s "$SCRATCH/1.txt" "$SCRATCH/2.txt"

printf '#include "lesson.h"\nint x;\nREJECT\n' >"$src"
nvcc_check "$SCRATCH/3.txt"
check "edited to an error: nvcc rejects (exit 1)" status_is $? 1
check "edited: nvcc was run again" status_is "$(calls)" 2
check "edited: the error names the line" contains "$SCRATCH/3.txt" "exercise.cu:3: error:"
nvcc_check "$SCRATCH/4.txt"
check "rejected and unchanged: still exit 1, kept" status_is $? 1
check "rejected and unchanged: nvcc not run again" status_is "$(calls)" 2
check "rejected and unchanged: the same error" cmp -s "$SCRATCH/3.txt" "$SCRATCH/4.txt"

echo '/* wb.h, changed */' >"$SCRATCH/harness/wb.h"
nvcc_check "$SCRATCH/5.txt"
check "a header of an -I folder changed: nvcc is asked again" status_is "$(calls)" 3
echo '/* lesson.h, changed */' >"$SCRATCH/lesson/lesson.h"
nvcc_check "$SCRATCH/6.txt"
check "a file beside the exercise changed: nvcc is asked again" status_is "$(calls)" 4

printf '#include "../elsewhere/x.h"\nint x;\n' >"$src"
nvcc_check "$SCRATCH/7.txt"
nvcc_check "$SCRATCH/8.txt"
check "a quoted include from another folder: never kept (nvcc run each time)" status_is "$(calls)" 6

unset WB_NVCC_CACHE
nvcc_check "$SCRATCH/9.txt"
nvcc_check "$SCRATCH/10.txt"
check "without WB_NVCC_CACHE: nvcc run each time" status_is "$(calls)" 8
finish
