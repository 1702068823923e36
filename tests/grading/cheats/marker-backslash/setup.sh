# The shipped exercise, whose task 2 start marker ends in '\': the compiler joins the next line
# to the comment, so a reader that took the marker as is would see '#include <unistd.h>' in
# the gap between the two readings. The one reader refuses the marker line itself.
mkdir -p "$STUDENT/03-hello-copy"
awk '/---- task 2:/ && !done { print $0 " \\"; print "#include <unistd.h>"; done = 1; next }
  { print }' "$TREE/lessons/03-hello-copy/exercise.cu" >"$STUDENT/03-hello-copy/exercise.cu"
