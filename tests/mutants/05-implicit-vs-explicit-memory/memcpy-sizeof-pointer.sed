# Task 4 sizes the copy with sizeof(host_in), as if it were an array: it is a pointer, 8 bytes,
# and one double crosses each way.
# expect: way 3: .*task 4
# args: --n 1000
/task 4: copy in/,/end of task 4/s|  size_t bytes = (size_t)n \* sizeof(double);|  size_t bytes = sizeof(host_in);|
