#!/usr/bin/env bash
# check-translation.sh ENGLISH CHINESE [GLOSSARY]: a page and its Simplified Chinese edition say the
# same thing (issue 28, the format in docs/zh-CN/glossary.md's table and the zh pages' first line).
#
#   1. CHINESE's first line is `<!-- translated-from: FILE @ COMMIT --> [English](FILE)`, FILE being
#      ENGLISH relative to CHINESE; ENGLISH now is byte-identical to `git show COMMIT:ENGLISH`
#      (else: the page to update and the `git diff` of what changed);
#   2. the same headings: count, levels, order (the text is translated);
#   3. every fenced code block byte-identical, in the same order;
#   4. the same link and image targets in the same order (a page with a Chinese edition may be
#      linked by its edition; the Chinese glossary may be linked in addition); external URLs equal;
#   5. inline `code` spans: the same set on both sides (the Chinese may add one naming a zh-CN page);
#   6. hints files: the same "## Hint N (task M)" lines;
#   7. glossary: where ENGLISH uses a glossary term, CHINESE uses its Chinese term, and CHINESE
#      never uses a word of the "avoid" column.
# Exit 0 when all holds, 1 with one line per problem, 2 on bad usage, 77 when everything else holds
# but step 1's commit cannot be checked (not a git checkout, e.g. an exported bundle, or a shallow
# clone without that commit): it says why.
set -uo pipefail

[ $# -ge 2 ] && [ $# -le 3 ] || { echo "usage: $0 ENGLISH CHINESE [GLOSSARY]" >&2; exit 2; }
en=$1 zh=$2
for f in "$en" "$zh"; do [ -f "$f" ] || { echo "$f: no such file" >&2; exit 2; }; done
here=$(cd "$(dirname "$0")" && pwd)
glossary=${3:-$here/../../docs/zh-CN/glossary.md}
[ -f "$glossary" ] || { echo "$glossary: no glossary" >&2; exit 2; }

problems=0
fail() { echo "$zh_name: $*"; problems=$((problems + 1)); }

# A path made of . and .. parts, made plain ("a/b/../c" -> "a/c").
normpath() {
  local IFS=/ part out=()
  for part in $1; do
    case $part in '' | .) ;; ..) [ ${#out[@]} -gt 0 ] && unset 'out[${#out[@]}-1]' || out+=(..) ;; *) out+=("$part") ;; esac
  done
  local joined="${out[*]}"
  case $1 in /*) echo "/$joined" ;; *) echo "$joined" ;; esac
}
en_dir=$(cd "$(dirname "$en")" && pwd) zh_dir=$(cd "$(dirname "$zh")" && pwd)
en_abs=$en_dir/$(basename "$en")
zh_name=$zh

# ---- 1. the first line and the English commit it follows ---------------------------------------
skip_reason=''
first=$(head -n 1 "$zh")
if [[ $first =~ ^'<!-- translated-from: '([^ ]+)' @ '([0-9a-f]{40})' --> [English]('([^\)]+)')'$ ]]; then
  from=${BASH_REMATCH[1]} commit=${BASH_REMATCH[2]} back=${BASH_REMATCH[3]}
  [ "$from" = "$back" ] || fail "line 1: translated-from names $from but [English] links to $back"
  [ "$(normpath "$zh_dir/$from")" = "$(normpath "$en_abs")" ] ||
    fail "line 1: translated-from names $from, which is not $en"
  [ -z "$(sed -n 2p "$zh")" ] || fail "line 2: should be blank (line 1 is the translated-from line)"
  if ! top=$(git -C "$en_dir" rev-parse --show-toplevel 2>/dev/null); then
    skip_reason="not a git checkout (an exported bundle?): cannot check that $en is unchanged since $commit"
  else
    rel=$(normpath "${en_abs#"$top"/}")
    if ! git -C "$top" cat-file -e "$commit^{commit}" 2>/dev/null; then
      if [ "$(git -C "$top" rev-parse --is-shallow-repository 2>/dev/null)" = true ]; then
        skip_reason="a shallow clone without commit $commit: cannot check that $rel is unchanged since (fetch more history: git fetch --unshallow)"
      else
        fail "line 1: commit $commit is not in this repository"
      fi
    elif ! git -C "$top" cat-file -e "$commit:$rel" 2>/dev/null; then
      fail "line 1: $rel does not exist in commit $commit"
    elif ! git -C "$top" show "$commit:$rel" | cmp -s - "$en_abs"; then
      fail "$rel changed after commit ${commit:0:12}, which this translation follows: update $zh (and the commit on its first line) to say what $rel says now; what changed: git diff $commit -- $rel"
      git -C "$top" --no-pager diff --no-color "$commit" -- "$rel" | head -n 60 | sed 's/^/  | /'
    fi
  fi
else
  fail "line 1 should be: <!-- translated-from: $(realpath --relative-to="$zh_dir" "$en_abs") @ COMMIT --> [English]($(realpath --relative-to="$zh_dir" "$en_abs")) (COMMIT: 40 hex digits)"
fi

# ---- Parts of a page, outside the first-line language link -------------------------------------
# MODE: heading (level and text), code (fenced blocks, "@@ block N" between), link (targets), span
# (inline code), hinthead (the "## Hint" lines), prose (text outside code, inline code removed).
parts() { # MODE FILE
  # Inline code and links are read per paragraph, list item or table row, its lines joined by one
  # space (a code span may run over a line break; the Chinese text is laid out in other lines).
  LC_ALL=C.UTF-8 awk -v mode="$1" '
    function flush() { if (para != "") inline(para); para = "" }
    function inline(line,   out, tick, before, rest, end, t) {
      out = ""
      while (match(line, /`+/)) {               # inline code spans, from a run of n backticks to the next
        tick = substr(line, RSTART, RLENGTH); before = substr(line, 1, RSTART - 1)
        rest = substr(line, RSTART + RLENGTH); end = index(rest, tick)
        if (!end) break
        if (mode == "span") print tick substr(rest, 1, end - 1) tick
        out = out before " "; line = substr(rest, end + length(tick))
      }
      line = out line
      if (mode == "prose") print line
      if (mode == "link") {
        if (match(line, /^ *\[[^]]+\]: +[^ ]+/)) { t = line; sub(/^ *\[[^]]+\]: +/, "", t); sub(/ .*/, "", t); print t }
        while (match(line, /\]\([^) \t]+/)) { print substr(line, RSTART + 2, RLENGTH - 2); line = substr(line, RSTART + RLENGTH) }
      }
    }
    NR == 1 && (/^\[简体中文\]\(/ || /^<!-- translated-from: /) { next }
    /^[ \t]*(```|~~~)/ {
      flush()
      if (!fenced) { blocks++; if (mode == "code") print "@@ code block " blocks }
      fenced = !fenced; if (mode == "code") print; next }
    fenced { if (mode == "code") print; next }
    mode == "heading" && /^#+ / { match($0, /^#+/); print RLENGTH "\t" NR "\t" $0; next }
    /^## Hint [0-9]+/ { flush(); if (mode == "hinthead") print; next }   # stays English: not prose
    /^[ \t]*$/ { flush(); next }
    /^#+ / { flush(); inline($0); next }
    /^ *([-*+]|[0-9]+\.) / || /^ *\|/ || /^ *\[[^]]+\]: / { flush(); para = $0; next }
    { t = $0; sub(/^[ \t]+/, "", t); para = para == "" ? $0 : para " " t }
    END { flush() }' "$2"
}

# ---- 2. headings ---------------------------------------------------------------------------------
mapfile -t en_heads < <(parts heading "$en")
mapfile -t zh_heads < <(parts heading "$zh")
if [ ${#en_heads[@]} -ne ${#zh_heads[@]} ]; then
  fail "headings: $en has ${#en_heads[@]}, $zh has ${#zh_heads[@]} (same headings, same order)"
fi
for ((i = 0; i < ${#en_heads[@]} && i < ${#zh_heads[@]}; i++)); do
  IFS=$'\t' read -r el eline etext <<<"${en_heads[i]}"
  IFS=$'\t' read -r zl zline ztext <<<"${zh_heads[i]}"
  if [ "$el" != "$zl" ]; then
    fail "heading $((i + 1)): level $zl at line $zline ($ztext) but level $el in $en line $eline ($etext)"
    break
  fi
done

# ---- 3. fenced code blocks -----------------------------------------------------------------------
if ! diff_out=$(diff <(parts code "$en") <(parts code "$zh")); then
  fail "fenced code blocks differ from $en (they stay byte-identical); first difference:"
  printf '%s\n' "$diff_out" | head -n 8 | sed 's/^/  | /'
fi

# ---- 4. links and images -------------------------------------------------------------------------
# A target, resolved to a path from the page's folder; a Chinese edition counts as its English page.
target() { # DIR TARGET SIDE
  local t=$2 anchor=''
  case $t in *:* | '#'*) echo "$t"; return ;; esac
  [[ $t == *'#'* ]] && anchor="#${t#*#}" t=${t%%#*}
  t=$(normpath "$1/$t")
  if [ "$3" = zh ]; then
    case $t in
      */README.zh-CN.md) t=${t%.zh-CN.md}.md ;;
      */hints.zh-CN.md) t=${t%.zh-CN.md}.md ;;
      */docs/zh-CN/getting-started.md | */docs/zh-CN/troubleshooting.md | */docs/zh-CN/instructor-guide.md)
        t=${t%/zh-CN/*}/${t##*/} ;;
    esac
  fi
  echo "$t$anchor"
}
mapfile -t en_links < <(parts link "$en" | while IFS= read -r t; do target "$en_dir" "$t" en; done)
mapfile -t zh_links < <(parts link "$zh" | while IFS= read -r t; do target "$zh_dir" "$t" zh; done | grep -v '/docs/zh-CN/glossary\.md\(#.*\)\?$')
shown() { case $1 in /*) realpath -m --relative-to="$en_dir" "$1" ;; *) echo "$1" ;; esac; }
if [ "${en_links[*]}" != "${zh_links[*]}" ]; then
  for ((i = 0; i < ${#en_links[@]} || i < ${#zh_links[@]}; i++)); do
    [ "${en_links[i]:-}" = "${zh_links[i]:-}" ] && continue
    fail "link $((i + 1)): $en links to $(shown "${en_links[i]:-(nothing)}") but $zh to $(shown "${zh_links[i]:-(nothing)}") (from $en's folder; same links, same order)"
    break
  done
fi

# ---- 5. inline code ------------------------------------------------------------------------------
missing=$(comm -23 <(parts span "$en" | LC_ALL=C sort -u) <(parts span "$zh" | LC_ALL=C sort -u) | head -n 3 | paste -sd ' ')
added=$(comm -13 <(parts span "$en" | LC_ALL=C sort -u) <(parts span "$zh" | LC_ALL=C sort -u) | grep -v "zh-CN" | head -n 3 | paste -sd ' ')
[ -z "$missing" ] || fail "inline code in $en but not here (code stays as in English): $missing"
[ -z "$added" ] || fail "inline code here but not in $en (code stays as in English): $added"

# ---- 6. hints --------------------------------------------------------------------------------------
if [ "$(basename "$en")" = hints.md ] && ! diff_out=$(diff <(parts hinthead "$en") <(parts hinthead "$zh")); then
  fail "the '## Hint N (task M)' lines differ from $en (they stay exactly as in English):"
  printf '%s\n' "$diff_out" | head -n 6 | sed 's/^/  | /'
fi

# ---- 7. glossary ---------------------------------------------------------------------------------
while IFS= read -r line; do fail "$line"; done < <(
  LC_ALL=C.UTF-8 awk -v gloss="$glossary" -v en_name="$en" '
    function words(s) { s = tolower(s); gsub(/[^a-z0-9]+/, " ", s); return " " s " " }
    function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
    BEGIN {
      while ((getline row < gloss) > 0) {
        if (row !~ /^\|/ || row ~ /^\|[- |]*$/) continue
        split(row, cell, /\|/); e = trim(cell[2]); c = trim(cell[3]); a = trim(cell[4])
        if (e == "English" || c == "") continue
        n++; term[n] = c; eng[n] = e
        gsub(/\([^)]*\)/, "", e); nv[n] = split(e, v, /,/)
        for (i = 1; i <= nv[n]; i++) variant[n, i] = trim(words(v[i]))
        na[n] = (a == "" ? 0 : split(a, av, /,/))
        for (i = 1; i <= na[n]; i++) avoid[n, i] = trim(av[i])
      }
    }
    FNR == 1 { file++ }
    file == 1 { en_text = en_text " " $0; next }
    { zh_text = zh_text "\n" $0 }
    END {
      en_w = words(en_text)
      for (r = 1; r <= n; r++) {
        for (i = 1; i <= nv[r]; i++) {
          p = variant[r, i]
          if (index(en_w, " " p " ") || index(en_w, " " p "s ") || index(en_w, " " p "es ")) {
            if (!index(zh_text, term[r]))
              print "glossary: " en_name " says \"" p "\" but this page never says " term[r] " (the glossary term for " eng[r] ")"
            break
          }
        }
        for (i = 1; i <= na[r]; i++) {
          bad = avoid[r, i]; text = zh_text
          for (s = 1; s <= n; s++)   # a right term that contains the avoided word is not a use of it
            if (term[s] != bad && index(term[s], bad)) gsub(term[s], "", text)
          if (index(text, bad)) print "glossary: says " bad ", which the glossary avoids: write " term[r] " (" eng[r] ")"
        }
      }
    }' <(parts prose "$en") <(parts prose "$zh"))

if [ $problems -gt 0 ]; then
  echo "$zh_name: $problems problem(s); the format: docs/zh-CN/glossary.md and the first line of any zh page"
  exit 1
fi
if [ -n "$skip_reason" ]; then
  echo "SKIP: $zh_name: $skip_reason (the rest of the pair test passed)"
  exit 77
fi
echo "OK: $zh_name follows $en"
