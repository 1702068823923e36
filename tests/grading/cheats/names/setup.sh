# Students whose folder names attack the gradebooks (issue 25). NAME itself submits the solution
# (a pass); the others the shipped exercise (a wrong result, judged without a build per task), but
# for lit\nx:
#   .hidden      a dot folder: graded, not skipped silently
#   =2+5         a spreadsheet formula: graded, its CSV cell quoted and prefixed with '
#   lit\nx       a literal backslash-n: graded, no forged tasks.txt line (awk -v would expand it);
#                a partial (task 1 wrong, task 2 right in words of its own), so task 2 is judged
#                by splicing it into the reference from a path that holds the backslash
#   summary.txt  one of grade's own files: skipped with the reason, exit status 4
#   new<LF>line  a newline: skipped with the reason
mkdir -p "$STUDENT/03-hello-copy"
cp "$TREE/solutions/03-hello-copy/solution.cu" "$STUDENT/03-hello-copy/exercise.cu"
for name in .hidden '=2+5' 'lit\nx' summary.txt $'new\nline'; do
  mkdir -p "$SUBMISSIONS/$name/03-hello-copy"
  cp "$TREE/lessons/03-hello-copy/exercise.cu" "$SUBMISSIONS/$name/03-hello-copy/exercise.cu"
done
sed -e '/---- task 1:/a\  if (blockIdx.x == 0 && threadIdx.x == 0) return; /* wrong: out[0] is never written */' \
  -e '/---- task 2:/a\  /* my own words: one block, n threads */' \
  "$TREE/solutions/03-hello-copy/solution.cu" >"$SUBMISSIONS/lit\\nx/03-hello-copy/exercise.cu"
