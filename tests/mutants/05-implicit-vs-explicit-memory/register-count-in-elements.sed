# Task 6 pins n bytes where n doubles were meant: only the first eighth of each array is
# pinned, and copies of the rest go the slow, pageable way.
# expect: FAIL: .*part pinned \(task 6: bytes\)
# args: --n 1000
/task 6: pin in place/,/end of task 6/s|  size_t bytes = n \* sizeof(double);|  size_t bytes = n;|
