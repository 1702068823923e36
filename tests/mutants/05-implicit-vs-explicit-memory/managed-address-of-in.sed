# Task 1 passes &in where in is already the double **: the allocation lands in the function's
# own parameter, and the driver's pointers stay NULL.
# expect: managed_alloc gave no arrays \(task 1\)
# args: --n 1000
s|cudaMallocManaged((void \*\*)in, bytes|cudaMallocManaged((void **)\&in, bytes|
