#!/usr/bin/env bash
# skeleton-guard.sh EXERCISE SOLUTION
#
# The exercise must equal the solution outside the marked task regions, so the learner's file
# and the reference solution can never drift apart. A task region is
#
#     // ---- task N: what to do ----------------------------------------
#     ... (the exercise has TODO lines and a placeholder, the solution the answer)
#     // ---- end of task N ---------------------------------------------
#
# (`/* ---- task N ... */` works too; a submission's markers must be the shipped lines, byte for
# byte: regions_read below). Both files must have the same tasks in the same order,
# every exercise region must contain a TODO, and no TODO may stand outside a region.
set -u
# The marker lines of a trusted file (a shipped exercise, a reference solution), the one definition
# every reader uses (awk regular expressions; give them with -v).
WB_TASK_START_RE='^[ \t]*(//|/[*]) ---- task [0-9]+([: ].*)?$'
WB_TASK_END_RE='^[ \t]*(//|/[*]) ---- end of task [0-9]+( .*)?$'
# Print the file with each region's body replaced by one line naming the task; report marker
# errors (unbalanced, nested) on stderr with the line number. With a third argument, "numbered",
# each printed line starts with its line number and a tab.
skeleton() {
  awk -v file="$1" -v want_todo="$2" -v numbered="${3:-}" -v start_re="$WB_TASK_START_RE" -v end_re="$WB_TASK_END_RE" '
    function fail(msg) { printf "skeleton: %s:%d: %s\n", file, NR, msg > "/dev/stderr"; bad = 1 }
    $0 ~ end_re {
      match($0, /end of task [0-9]+/); n = substr($0, RSTART + 12, RLENGTH - 12)
      if (!inside) fail("end of task " n " without its start")
      else if (n != task) fail("end of task " n " closes task " task)
      else if (want_todo && !todo) fail("task " n " has no TODO line")
      inside = 0; print (numbered ? NR "\t" : "") "<task " n ">"; next
    }
    $0 ~ start_re {
      match($0, /task [0-9]+/); n = substr($0, RSTART + 5, RLENGTH - 5)
      if (inside) fail("task " n " starts inside task " task)
      inside = 1; task = n; todo = 0; tasks++; next
    }
    inside { if ($0 ~ /TODO/) todo = 1; next }
    /TODO/ { fail("TODO outside a task region") }
    { print (numbered ? NR "\t" : "") $0 }
    END {
      if (inside) { NR = NR; fail("task " task " is never closed") }
      if (tasks == 0) fail("no task regions")
      exit bad
    }' "$1"
}


# ---- The one reader of task regions -------------------------------------------------------------
# Every check that needs to know where a submission's task regions are (submission-rules.sh, the
# grader's task_region and splice_task, task-checksums.sh) asks this reader, so no two checks can
# disagree about it. The marker lines come from a trusted file (the shipped exercise); a line of
# the other file is a marker only when it is byte for byte the next shipped marker line. Any other
# line that looks like a marker (a CR, a `\` at the end, `/*` for `//`, other text) is an error
# naming the line, as is a marker out of its place or missing.
#   regions_read SHIPPED FILE MODE [TASK]
#     MODE errors   "LINE<TAB>reason" per problem (nothing when the file is well marked)
#     MODE rebuild  SHIPPED with each region's body taken from FILE: what the compiler gets
#     MODE map      the rebuilt file's lines: "S|E<TAB>LINE<TAB>TASK" for its markers,
#                   "B<TAB>LINE<TAB>FILE-LINE<TAB>TASK" for body lines (which line of FILE), and
#                   "O<TAB>LINE<TAB>SHIPPED-LINE<TAB>FILE-LINE" for the shipped lines outside
#     MODE splice   like rebuild, but only task TASK's body from FILE, the others' from the file
#                   named by WB_REGIONS_BASE (the reference solution: per-task judging)
#     MODE body     the body of task TASK in FILE (markers excluded)
#     MODE outside  FILE's lines outside the regions, "LINE<TAB>text", a "<task N>" line for each
# Status 1 (and nothing but the errors printed) when FILE's markers are wrong. The file's name
# goes by the environment: awk -v would expand backslashes in it.
regions_read() { # SHIPPED FILE MODE [TASK]
  WB_REGIONS_SHIPPED=$1 awk -v mode="$3" -v want="${4:-}" -v start_re="$WB_TASK_START_RE" -v end_re="$WB_TASK_END_RE" '
    # Loosely: two dashes, then "task" and a number (any case, any spacing) later on the line.
    function looks_like_marker(s) { return s ~ /-[ \t]*-.*[Tt][ \t]*[Aa][ \t]*[Ss][ \t]*[Kk][ \t]*[0-9]/ }
    # Only the first problem: the ones after it follow from it.
    function err(line, msg) { if (!bad) errors = line "\t" msg "\n"; bad = 1 }
    BEGIN {
      shipped = ENVIRON["WB_REGIONS_SHIPPED"]
      while ((getline line < shipped) > 0) {
        lines++; text[lines] = line
        if (line ~ end_re) {
          match(line, /end of task [0-9]+/); markers++; mline[markers] = line; mkind[markers] = "E"; mtask[markers] = substr(line, RSTART + 12, RLENGTH - 12); mat[markers] = lines
        } else if (line ~ start_re) {
          match(line, /task [0-9]+/); markers++; mline[markers] = line; mkind[markers] = "S"; mtask[markers] = substr(line, RSTART + 5, RLENGTH - 5); mat[markers] = lines
        }
      }
      close(shipped)
      if (mode == "splice") {
        base = ENVIRON["WB_REGIONS_BASE"]; k = 1
        while ((getline line < base) > 0) {
          if (k <= markers && line == mline[k]) { on = (mkind[k] == "S"); t = mtask[k]; if (on) bn[t] = 0; k++; continue }
          if (on) { bn[t]++; bb[t, bn[t]] = line }
        }
        close(base)
      }
      k = 1; inside = 0
    }
    {
      if (k <= markers && $0 == mline[k]) {
        if (mkind[k] == "S") { inside = 1; task = mtask[k]; nbody[task] = 0; out[++nout] = "<task " task ">" ; outno[nout] = NR }
        else inside = 0
        k++; next
      }
      for (j = 1; j <= markers; j++) if ($0 == mline[j]) break
      if (j <= markers) { err(NR, "a task marker out of its place: \"" clip($0) "\" (the shipped markers, in their order)"); next }
      if (looks_like_marker($0)) {
        why = ""
        if ($0 ~ /\r/) why = " (it has a carriage return: save the file with Unix line ends)"
        else if ($0 ~ /\\$/) why = " (it ends in \\, which joins the next line to it)"
        err(NR, "a line that looks like a task marker but is not the shipped line" why ": \"" clip($0) "\"")
        next
      }
      if (inside) { nbody[task]++; body[task, nbody[task]] = $0; bodyno[task, nbody[task]] = NR }
      else { out[++nout] = $0; outno[nout] = NR; outsub[++noutl] = NR }
    }
    function clip(s) { gsub(/\r/, "\\r", s); gsub(/[^ -~]/, "?", s); return length(s) > 60 ? substr(s, 1, 57) "..." : s }
    END {
      if (k <= markers) err(NR + 1, "the marker \"" clip(mline[k]) "\" is missing (task markers must stay exactly as shipped)")
      if (bad) { if (mode == "errors") printf "%s", errors; exit 1 }
      if (mode == "errors") exit 0
      if (mode == "body") { for (i = 1; i <= nbody[want]; i++) print body[want, i]; exit 0 }
      if (mode == "outside") { for (i = 1; i <= nout; i++) print outno[i] "\t" out[i]; exit 0 }
      # rebuild / map: the shipped file, its bodies replaced.
      n = 0; k = 1; skip = 0
      for (i = 1; i <= lines; i++) {
        if (k <= markers && i == mat[k]) {
          n++
          if (mode != "map") print text[i]; else print mkind[k] "\t" n "\t" mtask[k]
          if (mkind[k] == "S") {
            t = mtask[k]; skip = 1
            if (mode == "splice" && t != want) { for (b = 1; b <= bn[t]; b++) print bb[t, b]; k++; continue }
            for (b = 1; b <= nbody[t]; b++) { n++; if (mode != "map") print body[t, b]; else print "B\t" n "\t" bodyno[t, b] "\t" t }
          } else skip = 0
          k++; continue
        }
        if (skip) continue
        n++; oc++
        if (mode != "map") print text[i]; else print "O\t" n "\t" i "\t" outsub[oc]
      }
    }' "$2"
}

# Sourced (the workbook's grader compares a submission with the shipped exercise the same way):
# only the function above.
(return 0 2>/dev/null) && return 0

exercise=${1:?exercise file} solution=${2:?solution file}
for f in "$exercise" "$solution"; do
  [ -f "$f" ] || { echo "skeleton: $f does not exist"; exit 1; }
done

exercise_skeleton=$(skeleton "$exercise" 1) || exit 1
# The solution's markers are the exercise's, byte for byte (the reader the grader uses).
if problem=$(regions_read "$exercise" "$solution" errors) && [ -z "$problem" ]; then :; else
  echo "skeleton: $solution:${problem%%$'\t'*}: ${problem#*$'\t'}"
  exit 1
fi
solution_skeleton=$(skeleton "$solution" 0) || exit 1
if [ "$exercise_skeleton" != "$solution_skeleton" ]; then
  echo "skeleton: $exercise and $solution differ outside their task regions:"
  diff <(printf '%s\n' "$exercise_skeleton") <(printf '%s\n' "$solution_skeleton") | head -40
  exit 1
fi
echo "skeleton: OK ($(grep -c '^<task' <<<"$exercise_skeleton") task regions, the rest identical)"
