# Task 2's start marker respelt `/* ---- task 2 */` (once: its text was never compared), with an
# #include and a call to system() after it. Refused now, naming the line.
mkdir -p "$STUDENT/03-hello-copy"
sed -e 's|^  // ---- task 2:.*$|  /* ---- task 2 */|' -e '/^  \/\* ---- task 2 \*\/$/a\#include <stdlib.h>\nstatic int cheat = system("true");' \
  "$TREE/lessons/03-hello-copy/exercise.cu" >"$STUDENT/03-hello-copy/exercise.cu"
