# Task 1 "fixed" by writing the answer inside the loop, on every divisor: the last divisor
# decides (9 % 4 != 0, so 9 is "prime"), and for 2 and 3 the loop never runs.
# expect: FAIL: one launch per number gives wrong flags: the for...else bug \(task 1\)
# args: --n 1000
s|    if (number % divisor == 0) {|    result[0] = number % divisor == 0 ? 0 : number; /* the last divisor decides */\n    if (0) {|
s|  result\[0\] = divisible ? 0 : number;|  (void)divisible;|
