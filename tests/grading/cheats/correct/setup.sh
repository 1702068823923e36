# The instructor's solution, copied at test time (the corpus holds no answers: it is exported).
mkdir -p "$STUDENT/03-hello-copy"
cp "$TREE/solutions/03-hello-copy/solution.cu" "$STUDENT/03-hello-copy/exercise.cu"
