# The shipped exercise, whose task 3 includes /dev/zero: the compiler reads it until it has no
# memory left, so the build must stop at --build-memory, as the student's compile error.
mkdir -p "$STUDENT/03-hello-copy"
awk '/TODO: compute how many blocks cover n elements/ { print "#include \"/dev/zero\""; skip = 1; next }
  skip { skip = 0; next }
  { print }' "$TREE/lessons/03-hello-copy/exercise.cu" >"$STUDENT/03-hello-copy/exercise.cu"
