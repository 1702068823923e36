#!/usr/bin/env bash
# unit.grading.escapes: the shell's fast paths of grade's escapes (clean_line, json_of, xml_of,
# grade_log_xml in shared/workbook/grade.sh) give the same bytes as the filters they stand in for
# (clean_text, json_string, xml_escape), on plain text and on every kind of text they must leave
# to the filters: escapes, control bytes, UTF-8, invalid UTF-8, NUL bytes, long logs.
set -u -o pipefail
source_root=$(cd "${1:?usage: $0 SOURCE_ROOT}" && pwd)
# shellcheck source=../../shared/workbook/grade.sh
source "$source_root/shared/workbook/grade.sh"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/workbook-escapes.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
checked=0 failures=0
same() { # WHAT TEXT GOT WANT
  checked=$((checked + 1))
  [ "$3" == "$4" ] && return
  failures=$((failures + 1))
  printf 'FAIL - %s of %q: %q, the filters give %q\n' "$1" "${2:0:60}" "${3:0:60}" "${4:0:60}"
}
check_text() { # TEXT
  same clean_line "$1" "$(clean_line "$1")" "$(printf '%s' "$1" | clean_text | tr '\t\n' '  ' | sed 's/ *$//')"
  same json_of "$1" "$(json_of "$1")" "$(printf '%s' "$1" | json_string)"
  same xml_of "$1" "$(xml_of "$1")" "$(xml_escape <<<"$1")"
  printf '%s' "$1" >"$scratch/log"
  same grade_log_xml "$1" "$(grade_log_xml "$scratch/log")" "$(grade_log_excerpt "$scratch/log" | xml_escape)"
}
texts=('' ' ' 'a' 'a  ' $'a\n' $'a\n\n' $'\n' $'a\tb\t' $'\t' 'a"b' "a'b" 'a\b' 'lit\nx' 'x&y<z>w'
  '=2+5' ' !#$%()*+,-./09:;=?@AZ[]^_`az{|}~' $'two\n\nlines  \n\n' $'a\rb' $'\e[31mred\e[0m'
  $'\e]0;title\a' $'caf\xc3\xa9' 'Zoë Müller' $'bad \xff utf-8' $'\xed\xa0\x80' $'\x7f' $'\x01x'
  $'\xc2\x85' $'\xef\xbf\xbe')
for text in "${texts[@]}"; do check_text "$text"; done
# A log with a NUL byte, one at the cut (128 KiB) and one past it: the filters' own way.
printf 'before\0after & <tag>\n' >"$scratch/log"
same grade_log_xml 'a NUL byte' "$(grade_log_xml "$scratch/log")" "$(grade_log_excerpt "$scratch/log" | xml_escape)"
for size in 131071 131072 131073; do
  head -c "$size" /dev/zero | tr '\0' 'x' >"$scratch/log"
  same grade_log_xml "a log of $size bytes" "$(grade_log_xml "$scratch/log")" "$(grade_log_excerpt "$scratch/log" | xml_escape)"
done
same grade_log_xml 'a missing log' "$(grade_log_xml "$scratch/none" 2>/dev/null)" "$(grade_log_excerpt "$scratch/none" 2>/dev/null | xml_escape)"
if [ $failures -eq 0 ]; then
  echo "test-escapes: all $checked checks passed"
  exit 0
fi
echo "test-escapes: $failures of $checked checks failed"
exit 1
