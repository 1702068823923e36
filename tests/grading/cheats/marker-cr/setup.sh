# Task 2's start marker with a carriage return before its end (made here: a file in git with a
# CR would be reformatted): once one reader stripped it and the other did not, and the code in
# between (an #include, an fopen) reached the compiler unchecked. Now refused, naming the line.
mkdir -p "$STUDENT/03-hello-copy"
sed -e '/^  \/\/ ---- task 2:/s/$/\r/' -e '/^  \/\/ ---- task 2:/a\#include <stdio.h>\nstatic FILE *cheat = fopen("/tmp/x", "w");' \
  "$TREE/lessons/03-hello-copy/exercise.cu" >"$STUDENT/03-hello-copy/exercise.cu"
