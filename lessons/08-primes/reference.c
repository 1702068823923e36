/* Lesson 08: the CPU references. */
#include "lesson.h"

#include <string.h>

/* The sieve of Eratosthenes: cross out the multiples of every prime p, starting at p*p (smaller
 * multiples were crossed out by smaller primes). About n log log n steps, no division at all: the
 * exact answer the check compares against. */
unsigned int primes_sieve(unsigned char *flags, int n) {
  memset(flags, 1, (size_t)n);
  flags[0] = 0;
  if (n > 1) flags[1] = 0;
  for (long long p = 2; p * p < n; ++p)
    if (flags[p])
      for (long long multiple = p * p; multiple < n; multiple += p) flags[multiple] = 0;
  unsigned int count = 0;
  for (int k = 0; k < n; ++k) count += flags[k];
  return count;
}

/* What the Python original's @vectorize(target='cpu') is_prime did, on one core: try every divisor
 * from 2 up to the square root, stop at the first that divides. */
unsigned int primes_trial_division(unsigned char *flags, int n) {
  unsigned int count = 0;
  for (int number = 0; number < n; ++number) {
    int prime = number >= 2;
    for (int divisor = 2; divisor * divisor <= number; ++divisor) {
      if (number % divisor == 0) {
        prime = 0;
        break;
      }
    }
    flags[number] = (unsigned char)prime;
    count += (unsigned int)prime;
  }
  return count;
}
