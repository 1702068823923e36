# Students whose folder names attack the gradebooks (issue 25): each submits the shipped exercise
# (a wrong result, judged without a build per task). NAME itself submits the solution (a pass).
#   .hidden      a dot folder: graded, not skipped silently
#   =2+5         a spreadsheet formula: graded, its CSV cell quoted and prefixed with '
#   lit\nx       a literal backslash-n: graded, no forged tasks.txt line (awk -v would expand it)
#   summary.txt  one of the grader's own files: skipped with the reason, exit status 4
#   new<LF>line  a newline: skipped with the reason
mkdir -p "$STUDENT/03-hello-copy"
cp "$TREE/solutions/03-hello-copy/solution.cu" "$STUDENT/03-hello-copy/exercise.cu"
for name in .hidden '=2+5' 'lit\nx' summary.txt $'new\nline'; do
  mkdir -p "$SUBMISSIONS/$name/03-hello-copy"
  cp "$TREE/lessons/03-hello-copy/exercise.cu" "$SUBMISSIONS/$name/03-hello-copy/exercise.cu"
done
