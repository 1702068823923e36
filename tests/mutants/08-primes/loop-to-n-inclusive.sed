# Task 3's loop runs to number <= n: the thread that reaches n writes one flag past the end.
# expect: FAIL: a flag past the end was written \(task 3: number < n\)
# args: --n 1000
s|number < n; number += stride)|number <= n; number += stride)|
