# Lesson 08 solved, but the shared count added without the atomic (task 4): a data race.
mkdir -p "$STUDENT/08-primes"
sed 's/if (my_primes > 0) atomicAdd(count, my_primes);/if (my_primes > 0) *count += my_primes;/' \
  "$TREE/solutions/08-primes/solution.cu" >"$STUDENT/08-primes/exercise.cu"
cmp -s "$TREE/solutions/08-primes/solution.cu" "$STUDENT/08-primes/exercise.cu" &&
  echo "no-atomic/setup.sh: the solution's atomicAdd line changed: update the sed" >&2
