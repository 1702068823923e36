# A correct submission with an endless loop in task 3, graded after rewrite-course-files: it must
# still time out (made from the solution at test time: the corpus holds no answers).
mkdir -p "$STUDENT/03-hello-copy"
awk '!done && /\/\/ ---- task 3:/ { print; print "  volatile int forever = 1;"; print "  while (forever) {"; print "  }"; done = 1; next } 1' \
  "$TREE/solutions/03-hello-copy/solution.cu" >"$STUDENT/03-hello-copy/exercise.cu"
