# Task 2 skips even numbers with return 0, and so loses 2, the only even prime.
# expect: FAIL: is_prime is wrong for some numbers \(task 2\)
# args: --n 1000
s|if (number % 2 == 0) return number == 2;|if (number % 2 == 0) return 0;|
