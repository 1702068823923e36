# Task 2 with > where >= belongs: the thread with x == data.x (or y, z) has no cell, but writes
# one anyway, past the end of its row.
# expect: FAIL: .*task 2
# args: --n 1000
s|if (x >= data.x \|\| y >= data.y \|\| z >= data.z) return;|if (x > data.x \|\| y > data.y \|\| z > data.z) return;|
