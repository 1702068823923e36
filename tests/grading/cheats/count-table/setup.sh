# Lesson 08 solved, but its count of primes (task 4) is a table of the eight shipped sizes' counts,
# written by one thread, no atomic: it passes every shipped size, and only the grade's seeded run,
# which checks a size of its own (wb_seeded_n), catches it. The answer is made from the solution at
# test time by the mutant that proves the same (tests/mutants/08-primes/count-table.sed).
mkdir -p "$STUDENT/08-primes"
bash "$TREE/shared/cmake/make-mutant.sh" "$TREE/tests/mutants/08-primes/count-table.sed" \
  "$TREE/solutions/08-primes/solution.cu" "$STUDENT/08-primes/exercise.cu"
