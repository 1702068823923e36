# An #include of the solution inside task 1's region.
mkdir -p "$STUDENT/03-hello-copy"
awk -v tree="$TREE" '!done && /\/\/ ---- task 1:/ { print; printf "#include \"%s/solutions/03-hello-copy/solution.cu\"\n", tree; done = 1; next } 1' \
  "$TREE/lessons/03-hello-copy/exercise.cu" >"$STUDENT/03-hello-copy/exercise.cu"
