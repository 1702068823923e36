/* Not simulated: see README.md in this folder. */
#error "cusim: <cuda_fp8.h> is not simulated (small float types)"
