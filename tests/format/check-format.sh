#!/usr/bin/env bash
# check-format.sh SOURCE_DIR: the project's C, C++ and CUDA files follow .clang-format.
# Formatting differs between clang-format releases, so the check runs with the release the
# project is formatted with (14) and is skipped (exit 77, with the reason) otherwise.
set -u
top=${1:?source dir}
want_major=14
tool=$(command -v clang-format-$want_major || command -v clang-format || true)
if [ -z "$tool" ]; then
  echo "skipped: clang-format is not installed"
  exit 77
fi
major=$("$tool" --version | sed -nE 's/.*version ([0-9]+).*/\1/p')
if [ "$major" != "$want_major" ]; then
  echo "skipped: $tool is release $major; the project is formatted with release $want_major"
  exit 77
fi
cd "$top" || exit 1
# The rewriter's test inputs are kept exactly as written: they test the rewriter, not style.
mapfile -t files < <(find shared lessons solutions tests -type f \
  \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cpp' -o -name '*.hpp' \) \
  -not -path 'tests/rewriter/*' | sort)
bad=0
for f in "${files[@]}"; do
  if ! "$tool" --dry-run -Werror "$f" >/dev/null 2>&1; then
    echo "not formatted: $f   (fix: $tool -i $f)"
    bad=$((bad + 1))
  fi
done
echo "${#files[@]} files checked, $bad not formatted"
[ $bad -eq 0 ]
