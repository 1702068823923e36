# Task 3 allocates and copies n bytes, not n floats (NumPy and CuPy count elements; the CUDA
# runtime counts bytes): only a quarter of the array makes the trip.
# expect: add_f32_from_host made an illegal memory access \(task 3\)
# args: --n 1000
s|  size_t bytes = (size_t)n \* sizeof(float);|  size_t bytes = (size_t)n;|
