# Each thread its own contiguous chunk, as on a CPU: right, but lanes a chunk apart.
# expect: task 3: 32.0 sectors/request, ideal 4.0: uncoalesced
s|  for (int i = blockIdx.x \* blockDim.x + threadIdx.x; i < n; i += stride) y\[i\] = a \* x\[i\] + y\[i\];|  int chunk = (n + stride - 1) / stride, first = (blockIdx.x * blockDim.x + threadIdx.x) * chunk;\n  for (int i = first; i < n \&\& i < first + chunk; ++i) y[i] = a * x[i] + y[i];|
