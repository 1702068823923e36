#!/usr/bin/env bash
# unit.workbook.lang: the workbook shows hints in the reader's language (issue 28). With
# WORKBOOK_LANG=zh-CN, or a zh_* locale (LC_ALL, else LC_MESSAGES, else LANG), `hint 03` and the
# hint after a failed `check 03` come from lessons/03-*/hints.zh-CN.md, within 80 columns, without
# its first line; WORKBOOK_LANG=en and an English locale show hints.md; a lesson without a Chinese
# file falls back to English; the "next lesson" line names README.zh-CN.md for a Chinese reader.
# Skips (77) while lesson 03 has no hints.zh-CN.md (its translation lands separately).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

n=03
lesson=$(lesson_folder "$SOURCE_ROOT" "$n") || exit 1
if [ ! -f "$SOURCE_ROOT/lessons/$lesson/hints.zh-CN.md" ]; then
  echo "SKIP: lessons/$lesson/hints.zh-CN.md does not exist yet (the Chinese hints of lesson $n)"
  exit 77
fi
tree=$SCRATCH/tree
copy_source_tree "$tree"
out=$SCRATCH/out.txt
en_hints=$tree/lessons/$lesson/hints.md
zh_hints=$tree/lessons/$lesson/hints.zh-CN.md
next=$(cd "$tree/lessons" && ls -d [0-9][0-9]-*/ | sed 's|/$||' | awk -v n="$n" 'substr($0, 1, 2) > n { print; exit }')
export WORKBOOK_CMAKE_ARGS="$WORKBOOK_CMAKE_ARGS -DWB_LESSONS=$n;${next%%-*}"

start_of() { # HINTS-FILE K: the first 12 characters of hint K (as the reader sees them)
  local LC_ALL=C.UTF-8 line
  line=$(hint_section "$1" "$2" | head -n 1)
  printf '%s' "${line:0:12}"
}
# lang_wb "VAR=VALUE..." ARGS...: the workbook with these language settings and no others.
lang_wb() {
  local settings=$1
  shift
  (
    unset LC_ALL LC_MESSAGES LANG WORKBOOK_LANG
    for setting in $settings; do export "${setting?}"; done
    wb "$tree" "$out" "$@"
  )
}
fits_80_columns() { # FILE: no line wider than 80 columns (a CJK or full-width character is 2)
  LC_ALL=C awk '{ n = 0
      for (i = 1; i <= length($0); i++) { c = substr($0, i, 1)
        if (c < "\200") n++; else if (c >= "\300") n += (c >= "\343" ? 2 : 1) }
      if (n > 80) { print "too wide (" n "): " $0; bad = 1 } }
    END { exit bad }' "$1"
}
zh1=$(start_of "$zh_hints" 1) en1=$(start_of "$en_hints" 1)
check "the Chinese and English hint 1 differ" test "$zh1" != "$en1"

lang_wb "WORKBOOK_LANG=zh-CN" hint "$n" 1
check "WORKBOOK_LANG=zh-CN hint $n 1: exit 0" status_is $? 0
check "WORKBOOK_LANG=zh-CN hint $n 1: the Chinese hint" contains "$out" "$zh1"
check "WORKBOOK_LANG=zh-CN hint $n 1: not the English one" lacks "$out" "$en1"
check "WORKBOOK_LANG=zh-CN hint $n 1: the same numbering" contains "$out" "Hint 1 of $(grep -c '^## Hint [0-9]' "$en_hints")"
check "WORKBOOK_LANG=zh-CN hint $n 1: not the file's first line" lacks "$out" "translated-from"
check "WORKBOOK_LANG=zh-CN hint $n 1: fits 80 columns" fits_80_columns "$out"
total=$(grep -c '^## Hint [0-9]' "$zh_hints")
for ((k = 2; k <= total; k++)); do
  lang_wb "WORKBOOK_LANG=zh-CN" hint "$n" "$k"
  check "WORKBOOK_LANG=zh-CN hint $n $k: hint $k in Chinese" contains "$out" "$(start_of "$zh_hints" "$k")"
  check "WORKBOOK_LANG=zh-CN hint $n $k: fits 80 columns" fits_80_columns "$out"
done

lang_wb "WORKBOOK_LANG=en LANG=zh_CN.UTF-8" hint "$n" 1
check "WORKBOOK_LANG=en wins over a Chinese locale" contains "$out" "$en1"
lang_wb "LANG=en_US.UTF-8" hint "$n" 1
check "LANG=en_US.UTF-8: the English hint" contains "$out" "$en1"
check "LANG=en_US.UTF-8: not the Chinese one" lacks "$out" "$zh1"
lang_wb "LANG=zh_CN.UTF-8" hint "$n" 1
check "LANG=zh_CN.UTF-8: the Chinese hint" contains "$out" "$zh1"
lang_wb "LC_ALL=en_US.UTF-8 LANG=zh_CN.UTF-8" hint "$n" 1
check "LC_ALL=en_US.UTF-8 wins over LANG=zh_CN.UTF-8" contains "$out" "$en1"
lang_wb "LC_MESSAGES=zh_CN.UTF-8 LANG=en_US.UTF-8" hint "$n" 1
check "LC_MESSAGES=zh_CN.UTF-8 wins over LANG=en_US.UTF-8" contains "$out" "$zh1"

# A failed check in a Chinese locale: the hint it shows is the Chinese one.
lang_wb "LANG=zh_CN.UTF-8" check "$n"
check "LANG=zh_CN.UTF-8 check $n (unsolved): exit 1" status_is $? 1
shown=$(sed -n 's/^Hint \([0-9]*\) of .*/\1/p' "$out" | head -n 1)
check "LANG=zh_CN.UTF-8 check $n (unsolved): shows a hint" test -n "$shown"
check "LANG=zh_CN.UTF-8 check $n (unsolved): the hint is the Chinese one" \
  contains "$out" "$(start_of "$zh_hints" "${shown:-1}")"
check "LANG=zh_CN.UTF-8 check $n (unsolved): not the English one" \
  lacks "$out" "$(start_of "$en_hints" "${shown:-1}")"
grep -v -F "$tree/workbook" "$out" >"$SCRATCH/hint-lines.txt" # the command names a long temporary path
check "LANG=zh_CN.UTF-8 check $n (unsolved): the hint fits 80 columns" fits_80_columns "$SCRATCH/hint-lines.txt"

# Solved: the next lesson's README in the reader's language (a stand-in Chinese page in this copy
# where the next lesson has none yet).
name=$(exercise_name "$tree" "$lesson")
cp "$SOURCE_ROOT/solutions/$lesson/solution.${name##*.}" "$tree/lessons/$lesson/$name"
[ -f "$tree/lessons/$next/README.zh-CN.md" ] || printf '# 第 %s 课\n' "${next%%-*}" >"$tree/lessons/$next/README.zh-CN.md"
lang_wb "LANG=zh_CN.UTF-8" check "$n"
check "LANG=zh_CN.UTF-8 check $n (solved): exit 0" status_is $? 0
check "LANG=zh_CN.UTF-8 check $n (solved): names the Chinese README of lesson ${next%%-*}" \
  contains "$out" "Read lessons/$next/README.zh-CN.md, then"
lang_wb "WORKBOOK_LANG=en LANG=zh_CN.UTF-8" check "$n"
check "WORKBOOK_LANG=en check $n (solved): names the English README" \
  contains "$out" "Read lessons/$next/README.md, then"

# No Chinese hints file: English, whatever the locale.
rm "$zh_hints"
lang_wb "WORKBOOK_LANG=zh-CN" hint "$n" 1
check "no hints.zh-CN.md: WORKBOOK_LANG=zh-CN falls back to English" contains "$out" "$en1"
finish
