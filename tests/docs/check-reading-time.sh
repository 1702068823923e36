#!/usr/bin/env bash
# check-reading-time.sh [WORDS] README...
#
# A lesson's core (the idea, the tasks, the check, the expected output and the common mistakes:
# everything before "## Going further") reads in ten minutes: at most WORDS words of prose
# (default 2000, ten minutes at 200 words a minute), not counting fenced blocks (code and output,
# which a learner scans rather than reads). Deep dives belong under "## Going further".
set -u
limit=2000
if [[ ${1:-} =~ ^[0-9]+$ ]]; then limit=$1; shift; fi
[ $# -gt 0 ] || { echo "usage: $0 [WORDS] README..."; exit 2; }
status=0
for readme in "$@"; do
  grep -q '^## Going further' "$readme" || { echo "$readme: no '## Going further' section"; status=1; continue; }
  words=$(awk '/^## Going further/ { exit } /^```/ { fenced = !fenced; next } !fenced { print }' "$readme" | wc -w)
  if [ "$words" -gt "$limit" ]; then
    echo "$readme: its core is $words words of prose, over $limit (ten minutes): move a deep dive under '## Going further'"
    status=1
  else
    echo "ok: $readme: $words words"
  fi
done
exit $status
