# Task 1 stores the left halo and forgets the right one. With n = 3 the right halo lies past the
# array and nobody reads it: right on a GPU too.
# expect: FAIL: task 1: .*halo
# args: --n 17;--n 40
/window\[local + STENCIL_BLOCK\] = /d
