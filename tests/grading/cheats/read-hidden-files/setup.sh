# Secrets where the program looks for them (the grade runs with --grading $TREE/grading-extra.txt):
# each must stay out of this student's logs in the sandbox, and out of results.json always.
printf '# SECRET-LESSON-GRADING\n' >"$TREE/lessons/03-hello-copy/grading.txt"
mkdir -p "$TREE/.git"
printf 'ref: refs/heads/SECRET-GIT-HEAD\n' >"$TREE/.git/HEAD"
