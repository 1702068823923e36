# Task 3 loads A's tile without the a_col < k check: for k not a multiple of 16 it reads the next
# row's numbers (or past the end) and adds them in.
# expect: (out-of-bounds read at .*\(task 3\)|FAIL: the tiled multiply is wrong \(task 3: padded tiles)
# args: --n 17;--n 40
s|row < m \&\& a_col < k ? a\[row \* k + a_col\] : 0.0f;|row < m ? a[row * k + a_col] : 0.0f;|
