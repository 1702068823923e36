# Task 2 without number < 2: the divisor loop does not run for 1, which is then "prime".
# expect: FAIL: is_prime is wrong for some numbers \(task 2\)
# args: --n 1000
/^  if (number < 2) return 0;$/d
