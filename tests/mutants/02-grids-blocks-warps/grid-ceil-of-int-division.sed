# Task 5 as Python's math.ceil(n / b): in C, data.x / block.x is already an integer division,
# rounded down, so ceil() has nothing left to round up.
# expect: FAIL: no thread wrote some cells \(tasks 1 and 5
# args: --n 1000
s|(data\.\([xyz]\) + block\.[xyz] - 1) / block\.\([xyz]\)|(unsigned)ceil(data.\1 / block.\2)|g
