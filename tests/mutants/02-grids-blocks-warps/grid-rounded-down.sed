# Task 5 divides rounding down (n / b): the cells at the edge are never written; for n < b the
# grid has 0 blocks, an invalid configuration.
# expect: FAIL: .*task 5
# args: --n 1;--n 1000
s|(data\.\([xyz]\) + block\.[xyz] - 1) / block\.\([xyz]\)|data.\1 / block.\2|g
