# The shipped exercise, whose task 3 asks the compilers whether the reference solution is there
# (its absolute path in the checkout). nvcc used to run outside the sandbox and see it: it now
# runs in the same sandbox as the simulator build, which shows neither the checkout nor
# solutions/, so both compilers build the (wrong) shipped answer.
mkdir -p "$STUDENT/03-hello-copy"
awk -v sol="$TREE/solutions/03-hello-copy/solution.cu" '
  /---- end of task 3/ { print "#if __has_include(\"" sol "\")"; print "#error the reference solution is readable at build time"; print "#endif" }
  { print }' "$TREE/lessons/03-hello-copy/exercise.cu" >"$STUDENT/03-hello-copy/exercise.cu"
