# Task 4 gives cudaMemcpy the number of elements, as Numba's copies count them: it counts bytes,
# so only the first eighth of the doubles crosses, both ways.
# expect: way 3: .*task 4
# args: --n 1000
/task 4: copy in/,/end of task 4/s|  size_t bytes = (size_t)n \* sizeof(double);|  size_t bytes = (size_t)n;|
