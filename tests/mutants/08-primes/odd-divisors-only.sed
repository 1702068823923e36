# Task 2 tries only odd divisors but forgets to deal with even numbers first: 4, 6, 8, ... have
# no odd divisor up to their root, and come out "prime".
# expect: FAIL: is_prime is wrong for some numbers \(task 2\)
# args: --n 1000
/^  if (number % 2 == 0) return number == 2;$/d
