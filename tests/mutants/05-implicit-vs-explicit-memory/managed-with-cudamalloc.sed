# Task 1 allocates with cudaMalloc, as Numba's cuda.device_array: device memory the host cannot
# touch, where managed memory (one pointer for both sides) was meant.
# expect: way 1: .*task 1
# args: --n 1000
s|cudaMallocManaged((void \*\*)in, bytes, cudaMemAttachGlobal)|cudaMalloc((void **)in, bytes)|
s|cudaMallocManaged((void \*\*)out, bytes, cudaMemAttachGlobal)|cudaMalloc((void **)out, bytes)|
