# Task 1 translates Python's range(2, number // 2) as divisor < number / 2: for 4 the loop
# never runs, and 4 is "prime".
# expect: FAIL: one launch per number gives wrong flags: the for...else bug \(task 1\)
# args: --n 1000
s|for (int divisor = 2; divisor <= number / 2; ++divisor) {|for (int divisor = 2; divisor < number / 2; ++divisor) {|
