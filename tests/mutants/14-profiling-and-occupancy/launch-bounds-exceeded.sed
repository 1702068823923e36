# __launch_bounds__(256) on the kernel, yet blocks of 1024 threads: on a GPU the launch fails
# (cudaErrorInvalidValue on CUDA 13, an H200), and the simulator refuses it too, naming the kernel.
# expect: cudaErrorInvalidValue in task 2
s|^__global__ void saxpy_kernel(|__global__ void __launch_bounds__(256) saxpy_kernel(|
s|^  int grid = (n + block - 1) / block;|  block = 1024;\n  int grid = (n + block - 1) / block;|
