# Task 2 with divisor * divisor < number: 9, 25, 49 ... are then "prime". The bound is <=.
# expect: FAIL: is_prime is wrong for some numbers \(task 2\)
# args: --n 1000
s|divisor \* divisor <= number;|divisor * divisor < number;|
