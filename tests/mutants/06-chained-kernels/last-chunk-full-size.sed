# Task 3 copies a whole chunk every time: when n is not a multiple of the chunk size, the last
# chunk reads and writes past the end of the arrays.
# expect: FAIL: 1 of 4 ways failed; the first: .*\(task 3\)
# args: --n 1000
s|int count = n - first < chunk ? n - first : chunk;|int count = chunk;|
