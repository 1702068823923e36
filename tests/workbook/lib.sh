# shellcheck shell=bash disable=SC2034
# lib.sh: shared by the workbook script's tests (sourced, not run).
#
# Each test works on a fresh copy of the source tree in a temporary folder, the way a learner or
# instructor would, and runs ./workbook there with a time limit so nothing hangs.
#
# Settings (environment), so CI stays cheap:
#   WORKBOOK_TEST_CMAKE_ARGS  configure arguments for the copies (default: -DWB_CUDA=OFF, sim only)
#   WORKBOOK_TEST_LESSON      the lesson the tests solve (default 01; it needs a solution and hints)
#   WORKBOOK_TEST_KEEP=1      keep the temporary folders for a look after a failure
set -u -o pipefail

SOURCE_ROOT=$(cd "${1:?usage: $0 SOURCE_ROOT}" && pwd)
TEST_NAME=${0##*/}
TEST_NAME=${TEST_NAME%.sh}
TEST_LESSON_NUMBER=${WORKBOOK_TEST_LESSON:-01}
export WORKBOOK_CMAKE_ARGS="${WORKBOOK_TEST_CMAKE_ARGS:--DWB_CUDA=OFF}"
export WORKBOOK_JOBS=2
export NO_COLOR=1
unset WORKBOOK_BUILD_DIR WORKBOOK_BACKEND WORKBOOK_WATCH
# `workbook grade` runs submissions in bubblewrap, or without a sandbox only by choice. Where
# bubblewrap does not work here, these tests make that choice (WORKBOOK_GRADE_SANDBOX=off, which
# grade prints); in CI it is installed (.ci/run) and the sandbox is used.
if ! bash "$SOURCE_ROOT/shared/workbook/sandbox.sh" --probe >/dev/null 2>&1; then
  export WORKBOOK_GRADE_SANDBOX=off
fi

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/workbook-$TEST_NAME.XXXXXX")
# Where the copies compile through ccache (WB_CCACHE, CI), paths under the temporary folder are
# hashed relative to each compile's folder, so every test's copy shares the objects that
# unit.workbook.prime put in the cache (issue 26). Harmless without ccache.
CCACHE_BASEDIR=${TMPDIR:-/tmp}
export CCACHE_BASEDIR=${CCACHE_BASEDIR%/}
# ccache puts LANG, LC_ALL and LC_MESSAGES in its hash (they can change the compiler's warnings):
# unit.workbook.lang builds under zh_CN, and so took nothing from prime's objects (0 hits, 42
# compiles). No test compares a compiler's warnings, and a failed compile is never cached.
export CCACHE_SLOPPINESS=locale
# `workbook grade` builds each submission in its sandbox without ccache. These tests grade the same
# files again and again (the corpus in three modes, a class regraded), so their graded builds
# share a cache of this test run's own, in the temporary folder (never one that others use):
# WORKBOOK_GRADE_CCACHE_DIR, which grade gives to its sandboxed builds only (sandbox.sh).
if command -v ccache >/dev/null; then
  export WORKBOOK_GRADE_CCACHE_DIR=$SCRATCH/grade-ccache
  mkdir -p "$WORKBOOK_GRADE_CCACHE_DIR"
fi
cleanup() {
  if [ "${WORKBOOK_TEST_KEEP:-0}" = 1 ]; then echo "kept: $SCRATCH"; else rm -rf "$SCRATCH"; fi
}
trap cleanup EXIT

FAILURES=0
pass() { echo "ok   - $*"; }
fail() { echo "FAIL - $*"; FAILURES=$((FAILURES + 1)); }
# check DESCRIPTION COMMAND...: pass when the command succeeds.
check() {
  local what=$1
  shift
  if "$@"; then pass "$what"; else fail "$what"; fi
}
contains() { grep -q -F -- "$2" "$1"; }   # FILE TEXT
lacks() { ! grep -q -F -- "$2" "$1"; }    # FILE TEXT
finish() {
  if [ $FAILURES -eq 0 ]; then echo "$TEST_NAME: all checks passed"; exit 0; fi
  echo "$TEST_NAME: $FAILURES checks failed"
  exit 1
}

# The source tree's folders with a CMakeCache.txt below its top (build folders of any name), as
# find tests that prune them: one find, where a `-type d -exec test -f` in the copying find started
# a `test` for every one of the tree's ~190 folders in each copy (issue 26).
source_build_prunes() { # -> SOURCE_BUILD_PRUNES
  local cache dir quoted c i
  SOURCE_BUILD_PRUNES=()
  while IFS= read -r -d '' cache; do
    [ -f "$SOURCE_ROOT/$cache" ] || continue
    dir=${cache%/CMakeCache.txt} quoted=''
    for ((i = 0; i < ${#dir}; i++)); do # find -path takes a pattern: quote * ? [ ] \ in the name
      c=${dir:i:1}
      case $c in '*' | '?' | '[' | ']' | \\) quoted+="\\$c" ;; *) quoted+=$c ;; esac
    done
    SOURCE_BUILD_PRUNES+=(-o -path "$quoted")
  done < <(cd "$SOURCE_ROOT" && find . -mindepth 2 \( -name .git -o -path './build*' \) -prune -o -name CMakeCache.txt -print0)
}
# A copy of the source tree without .git and build folders (top-level build*, or any folder with
# a CMakeCache.txt): what a learner gets from a clone or a download.
copy_source_tree() { # DEST
  mkdir -p "$1"
  source_build_prunes
  (cd "$SOURCE_ROOT" && find . -mindepth 1 \( -name .git -o -path './build*' -o -name '*.bak' \
      -o -path ./.workbook "${SOURCE_BUILD_PRUNES[@]}" \) -prune -o ! -type d -print0 |
    xargs -0 -r cp -a --parents -t "$1")
}

# wb TREE OUTFILE ARGS...: run TREE/workbook from another folder (it must find itself), with a time
# limit; its output goes to OUTFILE (and to this test's log); returns its exit status.
wb() {
  local tree=$1 out=$2 status
  shift 2
  echo "\$ workbook $*" >>"$SCRATCH/commands.log"
  (cd "$SCRATCH" && timeout --kill-after=10 900 "$tree/workbook" "$@") >"$out" 2>&1
  status=$?
  sed 's/^/    | /' "$out"
  return $status
}
# The status of the last command, for checks on it.
status_is() { [ "$1" -eq "$2" ]; } # GOT WANT

lesson_folder() { # TREE NN -> NN-slug
  local dir
  for dir in "$1"/lessons/"$2"-*/; do [ -d "$dir" ] && { dir=${dir%/}; echo "${dir##*/}"; return; }; done
  echo "no lesson $2 in $1" >&2
  return 1
}
exercise_name() { # TREE NN-slug -> exercise.cu or exercise.c
  if [ -f "$1/lessons/$2/exercise.c" ]; then echo exercise.c; else echo exercise.cu; fi
}
# The K-th "## Hint" section of a hints.md, trimmed of blank lines (as the script shows it).
hint_section() { # HINTS-FILE K
  awk -v k="$2" '/^## / { n += ($0 ~ /^## Hint [0-9]+/); on = ($0 ~ /^## Hint/ && n == k); next } on' "$1" |
    sed -e '/./,$!d' | tac | sed -e '/./,$!d' | tac
}

# unwrap FILE: the simulator's messages as one line each (it wraps them for a person, indenting
# each continuation line by two spaces; the workbook shows them behind "  | ").
unwrap() {
  awk '/^  \|   [^ ]/ && prev != "" { sub(/^  \| +/, " "); prev = prev $0; next }
       { if (NR > 1) print prev; prev = $0 } END { print prev }' "$1"
}
export -f unwrap
