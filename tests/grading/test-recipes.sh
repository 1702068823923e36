#!/usr/bin/env bash
# unit.grading.recipes: the recipes of docs/instructor-guide.md (docs/recipes/), run here as far
# as they run without the service, on a class of four (lesson 03: two right, one wrong, one who
# submitted nothing):
#   Slurm       grade.sbatch as two array tasks (SLURM_ARRAY_TASK_ID=1,2 of 2), merge.sbatch
#   --jobs 2    the same class in two parallel shards: the same grades as the Slurm run
#   GitLab CI   the grade job's script line as nodes 1 and 2 of 2, the merge job's: a JUnit report
#   Gradescope  run_autograder against a folder laid out as /autograder (AUTOGRADER_ROOT)
#   PrairieLearn  run.sh against a folder laid out as /grade (PL_GRADE_ROOT)
# (GitHub Classroom's recipe runs `./workbook check NN` in a student's repository: the commands
# unit.workbook.handout runs in a bundle; its grade of record grades git clones, as
# unit.workbook.layouts does.)
source "$(dirname "${BASH_SOURCE[0]}")/../workbook/lib.sh"

tree=$SCRATCH/tree
copy_source_tree "$tree"
recipes=$SOURCE_ROOT/docs/recipes
lesson=03-hello-copy
solution=$SOURCE_ROOT/solutions/$lesson/solution.cu
shipped=$SOURCE_ROOT/lessons/$lesson/exercise.cu
subs=$SCRATCH/submissions
for s in ann bo; do mkdir -p "$subs/$s/lessons/$lesson"; cp "$solution" "$subs/$s/lessons/$lesson/exercise.cu"; done
mkdir -p "$subs/cy/lessons/$lesson" "$subs/di/lessons/$lesson"
cp "$shipped" "$subs/cy/lessons/$lesson/exercise.cu"
echo "nothing yet" >"$subs/di/lessons/$lesson/notes.txt"
rows() { tr -d '\r' <"$1" | sort; } # FILE: a grades.csv, in an order to compare

# Slurm: two array tasks, then the merge.
out=$SCRATCH/class
for i in 1 2; do
  WORKBOOK=$tree/workbook SUBMISSIONS=$subs OUT=$out LESSONS=03 SEED=77 SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=2 \
    timeout 900 bash "$recipes/slurm/grade.sbatch" >"$SCRATCH/slurm-$i.out" 2>&1
  check "slurm: array task $i of 2 succeeds" status_is $? 0
done
check "slurm: task 1 graded every second student from the first" grep -q -E '^  ann +03 pass' "$SCRATCH/slurm-1.out"
check "slurm: task 2 graded the others" grep -q -E '^  bo +03 pass' "$SCRATCH/slurm-2.out"
WORKBOOK=$tree/workbook OUT=$out timeout 300 bash "$recipes/slurm/merge.sbatch" >"$SCRATCH/merge.out" 2>&1
check "slurm: the merge succeeds" status_is $? 0
check "slurm: one grades.csv, four students and the header" test "$(wc -l <"$out/all/grades.csv")" -eq 5
check "slurm: ann 3/3" grep -q -F 'ann,pass,3,1,1,1,3,3' "$out/all/grades.csv"
check "slurm: cy wrong" grep -q -E '^cy,wrong-result,0,' "$out/all/grades.csv"
check "slurm: di not submitted" grep -q -E '^di,not-submitted,0,' "$out/all/grades.csv"
check "slurm: results.json for each" test -f "$out/all/bo/results.json" -a -f "$out/all/di/results.json"
check "slurm: without an array task id, one clear line" bash -c \
  'out=$(WORKBOOK=x SUBMISSIONS=x OUT=x LESSONS=03 bash "$1" 2>&1); [ $? -ne 0 ] && grep -q "not an array task" <<<"$out"' _ "$recipes/slurm/grade.sbatch"

# --jobs 2: the same shards, on one machine (same work folders, so nothing is rebuilt).
wb "$tree" "$SCRATCH/jobs.out" grade "$subs" --lessons 03 --jobs 2 --seed 77 --output "$out"
check "--jobs 2: exit 0" status_is $? 0
check "--jobs 2: the same grades as the Slurm shards" cmp -s <(rows "$out/grades.csv") <(rows "$out/all/grades.csv")

# GitLab CI: the grade job's script as nodes 1 and 2, then the merge job's.
yaml=$recipes/gitlab/gitlab-ci.yml
script_of() { # JOB: the job's "script:" lines
  awk -v job="$1:" '$0 == job { on = 1; next } /^[a-z]/ { on = 0 } on && /^  [a-z_]+:/ { in_script = ($1 == "script:"); next }
    on && in_script && /^    - / { sub(/^    - /, ""); print }' "$yaml"
}
check "gitlab: the grade job has a script" test -n "$(script_of grade)"
check "gitlab: the merge job names the JUnit report" grep -q -E '^ +junit: grades/all/junit.xml' "$yaml"
mkdir -p "$SCRATCH/gitlab"
ln -s "$subs" "$SCRATCH/gitlab/submissions"
# The jobs' output folder, grades/, is the Slurm run's: node I grades into the work folder that
# array task I made (configured and built), as a runner that keeps grades/ between pipelines
# would, instead of building the simulator twice more. (Everything checked above is read no more.)
ln -s "$out" "$SCRATCH/gitlab/grades"
ln -s "$tree/workbook" "$SCRATCH/gitlab/workbook"
for i in 1 2; do
  (cd "$SCRATCH/gitlab" && CI_PIPELINE_ID=77 CI_NODE_INDEX=$i CI_NODE_TOTAL=2 WORKBOOK_BUILD_DIR=$SCRATCH/gitlab/build-$i \
    timeout 900 bash -c "$(script_of grade)") >"$SCRATCH/gitlab-$i.out" 2>&1
  check "gitlab: grade node $i of 2 succeeds" status_is $? 0
done
(cd "$SCRATCH/gitlab" && WORKBOOK_BUILD_DIR=$SCRATCH/gitlab/build-m timeout 300 bash -c "$(script_of merge)") >"$SCRATCH/gitlab-m.out" 2>&1
check "gitlab: the merge job succeeds" status_is $? 0
check "gitlab: its JUnit report: four students, lessons 03-05, ten failures" \
  grep -q '<testsuites name="workbook grade" tests="12" failures="10" errors="0">' "$SCRATCH/gitlab/grades/all/junit.xml"

# Gradescope: a folder laid out as /autograder.
ag=$SCRATCH/autograder
mkdir -p "$ag/source" "$ag/submission" "$ag/results"
cp "$recipes/gradescope/setup.sh" "$recipes/gradescope/run_autograder" "$ag/source/"
copy_source_tree "$ag/source/workbook"
echo 03 >"$ag/source/lessons.txt"
check "gradescope: setup.sh is valid Bash" bash -n "$ag/source/setup.sh"
# The student's submission as Gradescope stores it: the file at the top, task 1 and 2 done.
awk '/---- task 3:/ { print; skip = 1; next } /---- end of task 3/ { skip = 0 } !skip' "$solution" >"$SCRATCH/two-tasks.cu"
sed -n '/---- task 3:/,/---- end of task 3/p' "$shipped" | sed '1d;$d' >"$SCRATCH/task3.txt"
awk -v f="$SCRATCH/task3.txt" '{ print } /---- task 3:/ { while ((getline l < f) > 0) print l }' "$SCRATCH/two-tasks.cu" >"$ag/submission/exercise.cu"
AUTOGRADER_ROOT=$ag timeout 900 bash "$ag/source/run_autograder" >"$SCRATCH/gradescope.out" 2>&1
check "gradescope: run_autograder exits 0" status_is $? 0
json=$ag/results/results.json
check "gradescope: results.json written" test -s "$json"
check "gradescope: score 2 (tasks 1 and 2)" grep -q -E '^  "score": 2,' "$json"
check "gradescope: three tests, one per task" test "$(grep -c '"max_score"' "$json")" -eq 3
command -v jq >/dev/null && check "gradescope: valid JSON, scores add up" jq -e '([.tests[].score] | add) == .score' "$json"

# PrairieLearn: a folder laid out as /grade.
pl=$SCRATCH/grade
mkdir -p "$pl/student" "$pl/serverFilesCourse" "$pl/tests"
copy_source_tree "$pl/serverFilesCourse/workbook"
echo 03 >"$pl/tests/lessons.txt"
cp "$ag/submission/exercise.cu" "$pl/student/exercise.cu"
PL_GRADE_ROOT=$pl timeout 900 bash "$recipes/prairielearn/run.sh" >"$SCRATCH/pl.out" 2>&1
check "prairielearn: run.sh exits 0" status_is $? 0
check "prairielearn: gradable, score 2/3" grep -q -E '^\{"gradable": true, "score": 0.66666' "$pl/results/results.json"
check "prairielearn: a test per task, with points" test "$(grep -c '"max_points"' "$pl/results/results.json")" -eq 3
command -v jq >/dev/null && check "prairielearn: valid JSON" jq -e '.tests | length == 3' "$pl/results/results.json"
finish
