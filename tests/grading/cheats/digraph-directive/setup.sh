# A directive spelt with digraphs in task 2: `%:define JOIN(a, b) a%:%:b`, then JOIN(ex, it)(0).
mkdir -p "$STUDENT/03-hello-copy"
sed '/^  \/\/ ---- task 2:/a\%:define JOIN(a, b) a%:%:b\n  JOIN(ex, it)(0);' \
  "$TREE/lessons/03-hello-copy/exercise.cu" >"$STUDENT/03-hello-copy/exercise.cu"
