# Lesson 04's solution whose task 1 kernel calls rand(), a host function: the simulator builds and
# runs it, nvcc (the compiler of record) rejects it. Made from the solution at test time (the
# corpus holds no answers). Issue 25: it got 2 of 3 points from per-task judging; now none.
mkdir -p "$STUDENT/04-doubling-large-arrays"
sed 's|^  if (i < n) out\[i\] = 2.0 \* in\[i\];$|  if (i < n) out[i] = 2.0 * in[i] + 0.0 * rand();|' \
  "$TREE/solutions/04-doubling-large-arrays/solution.cu" >"$STUDENT/04-doubling-large-arrays/exercise.cu"
grep -q 'rand()' "$STUDENT/04-doubling-large-arrays/exercise.cu" || echo "kernel-calls-rand: the solution changed: setup.sh no longer applies" >&2
