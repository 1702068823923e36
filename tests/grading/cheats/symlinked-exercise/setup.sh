# The exercise is a link to a classmate's (correct) file.
mkdir -p "$STUDENT/03-hello-copy" && ln -s "$SUBMISSIONS/correct/03-hello-copy/exercise.cu" "$STUDENT/03-hello-copy/exercise.cu"
