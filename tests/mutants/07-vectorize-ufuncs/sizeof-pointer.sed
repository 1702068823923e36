# Task 3 sizes its copies with sizeof(a), the size of a pointer (8), not of a float (4): twice the
# bytes are read from a and b and written into out, past the end of every host array.
# expect: FAIL: add_f32_from_host wrote past the end of out \(task 3\)
# args: --n 1000
s|  size_t bytes = (size_t)n \* sizeof(float);|  size_t bytes = (size_t)n * sizeof(a);|
