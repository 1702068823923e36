#!/usr/bin/env bash
# test-check-translation.sh ROOT: the pair test (check-translation.sh) fires. A temporary git repo
# holds a copy of the top README pair (plus a link on both sides) and a small hints pair; each case
# breaks one thing (the English side changed alone, a code block, a heading, a link, a glossary
# term, a hint's task number, the first line) and expects exit 1 with the right message; outside
# git and in a shallow clone the test skips (77) and says why.
set -u
root=$(cd "${1:?ROOT}" && pwd)
check=$root/tests/docs/check-translation.sh
for f in README.md README.zh-CN.md docs/zh-CN/glossary.md; do
  [ -f "$root/$f" ] || { echo "SKIP: $f is missing"; exit 77; }
done
command -v git >/dev/null || { echo "SKIP: no git"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
expect() { # CODE REGEX WHAT: run the check on the pair in $pair (EN ZH) from $repo
  local code=$1 regex=$2 what=$3 out status
  out=$(cd "$repo" && bash "$check" "${pair[@]}" "$repo/docs/zh-CN/glossary.md" 2>&1)
  status=$?
  if [ "$status" -ne "$code" ] || ! grep -Eq -- "$regex" <<<"$out"; then
    echo "FAIL: $what: wanted exit $code and /$regex/, got exit $status:"
    printf '%s\n' "$out" | sed 's/^/    /'
    failures=$((failures + 1))
  else
    echo "ok: $what (exit $status): $(grep -E -m1 -- "$regex" <<<"$out" | cut -c1-160)"
  fi
}

repo=$tmp/repo
mkdir -p "$repo/docs/zh-CN" "$repo/lessons/99-demo"
cp "$root/README.md" "$root/README.zh-CN.md" "$repo/"
cp "$root/docs/zh-CN/glossary.md" "$repo/docs/zh-CN/"
printf '\nSee [getting started](docs/getting-started.md).\n' >>"$repo/README.md"
printf '\n见[入门指南](docs/zh-CN/getting-started.md)。\n' >>"$repo/README.zh-CN.md"
cat >"$repo/lessons/99-demo/hints.md" <<'EOF'
[简体中文](hints.zh-CN.md)

# Hints

## Hint 1 (task 1)

Each thread computes one element: its index is `blockIdx.x * blockDim.x + threadIdx.x`.

## Hint 2 (task 2)

The last block has threads past `n`.
EOF
cat >"$repo/lessons/99-demo/hints.zh-CN.md" <<'EOF'
<!-- translated-from: hints.md @ COMMIT --> [English](hints.md)

# 提示

## Hint 1 (task 1)

每个线程计算一个元素：它的索引是 `blockIdx.x * blockDim.x + threadIdx.x`。

## Hint 2 (task 2)

最后一个线程块里有些线程超出了 `n`。
EOF
git -C "$repo" init -q && git -C "$repo" add -A &&
  git -C "$repo" -c user.name=t -c user.email=t@t commit -qm english || exit 1
commit=$(git -C "$repo" rev-parse HEAD)
sed -i "1s/@ [0-9a-fA-Z]* -->/@ $commit -->/" "$repo/README.zh-CN.md" "$repo/lessons/99-demo/hints.zh-CN.md"
git -C "$repo" -c user.name=t -c user.email=t@t commit -qam chinese || exit 1
fresh() { git -C "$repo" checkout -q HEAD -- . && git -C "$repo" clean -qfd; }

pair=(README.md README.zh-CN.md)
expect 0 '^OK: ' "the copied pair passes"

echo "A new English sentence." >>"$repo/README.md"
git -C "$repo" -c user.name=t -c user.email=t@t commit -qam "english alone"
expect 1 "README.md changed after commit ${commit:0:12}.*update README.zh-CN.md.*git diff $commit -- README.md" \
  "the English side changed alone (committed)"
expect 1 '^  \| \+A new English sentence\.' "the message shows the diff"
git -C "$repo" reset -q --hard HEAD~1
echo "A new English sentence." >>"$repo/README.md"
expect 1 "README.md changed after commit" "the English side changed alone (not committed)"
fresh

sed -i 's/show progress and the next lesson/show progress/' "$repo/README.zh-CN.md"
expect 1 'fenced code blocks differ from README.md' "a code block changed"
fresh

sed -i '0,/^## /s/^## /### /' "$repo/README.zh-CN.md"
expect 1 '^README.zh-CN.md: heading 2: level 3 .* but level 2 in README.md' "a heading's level changed"
fresh
sed -i '0,/^## /{/^## /d}' "$repo/README.zh-CN.md"
expect 1 'headings: README.md has [0-9]+, README.zh-CN.md has' "a heading left out"
fresh

sed -i 's|(docs/zh-CN/getting-started.md)|(docs/troubleshooting.md)|' "$repo/README.zh-CN.md"
expect 1 'link 1: README.md links to docs/getting-started.md but README.zh-CN.md to docs/troubleshooting.md' \
  "a link's target changed"
fresh
sed -i 's|(docs/zh-CN/getting-started.md)|(docs/getting-started.md)|' "$repo/README.zh-CN.md"
expect 0 '^OK: ' "a link to the English page where a Chinese edition exists is allowed"
fresh

sed -i 's/核函数/内核函数/g' "$repo/README.zh-CN.md"
expect 1 'says 内核函数, which the glossary avoids: write 核函数' "an avoided word for kernel"
fresh
sed -i 's/线程束/warp/g' "$repo/README.zh-CN.md"
expect 1 'glossary: README.md says "warp" but this page never says 线程束' "a glossary term left out"
fresh

sed -i 's/`--quiet`/`--silent`/' "$repo/README.zh-CN.md"
expect 1 'inline code in README.md but not here.*`--quiet`' "an inline code span changed"
fresh

sed -i '1d' "$repo/README.zh-CN.md"
expect 1 'line 1 should be: <!-- translated-from: README.md @ COMMIT --> \[English\]\(README.md\)' \
  "the translated-from line missing"
fresh

pair=(lessons/99-demo/hints.md lessons/99-demo/hints.zh-CN.md)
expect 0 '^OK: ' "the hints pair passes"
sed -i 's/^## Hint 2 (task 2)/## Hint 2 (task 3)/' "$repo/lessons/99-demo/hints.zh-CN.md"
expect 1 "the '## Hint N \(task M\)' lines differ" "a hint's task number changed"
fresh
sed -i 's/^## Hint 2 (task 2)/## 提示 2（任务 2）/' "$repo/lessons/99-demo/hints.zh-CN.md"
expect 1 "the '## Hint N \(task M\)' lines differ" "a hint heading translated"
fresh

# Outside git (an exported bundle) and in a shallow clone: the commit cannot be checked.
pair=(README.md README.zh-CN.md)
cp -r "$repo" "$tmp/export" && rm -rf "$tmp/export/.git"
saved=$repo repo=$tmp/export
expect 77 '^SKIP: .*not a git checkout' "outside git it skips"
repo=$saved
echo "more" >"$repo/unrelated.txt"
git -C "$repo" add unrelated.txt && git -C "$repo" -c user.name=t -c user.email=t@t commit -qm unrelated
git clone -q --depth 1 "file://$repo" "$tmp/shallow" 2>/dev/null
repo=$tmp/shallow
expect 77 '^SKIP: .*shallow clone without commit' "a shallow clone without the commit skips"
sed -i 's/show progress and the next lesson/show progress/' "$repo/README.zh-CN.md"
expect 1 'fenced code blocks differ' "a shallow clone still checks the rest"

[ $failures -eq 0 ] || { echo "$failures case(s) failed"; exit 1; }
echo "all cases fire as they should"
