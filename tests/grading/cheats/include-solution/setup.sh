# The whole exercise is the instructor's solution, included by its absolute path.
mkdir -p "$STUDENT/03-hello-copy"
printf '#include "%s/solutions/03-hello-copy/solution.cu"\n' "$TREE" >"$STUDENT/03-hello-copy/exercise.cu"
