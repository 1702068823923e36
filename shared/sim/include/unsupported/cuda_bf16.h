/* Not simulated: see README.md in this folder. */
#error "cusim: <cuda_bf16.h> is not simulated (half types)"
