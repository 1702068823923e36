# Task 5 with n / b + 1 blocks: one block too many where b divides n. With the bounds check the
# extra block writes nothing, but it changes gridDim and so the numbers of the blocks after it.
# expect: FAIL: a grid with a block too many \(task 5
# args: --n 1000
s|(data\.\([xyz]\) + block\.[xyz] - 1) / block\.\([xyz]\)|data.\1 / block.\2 + 1|g
