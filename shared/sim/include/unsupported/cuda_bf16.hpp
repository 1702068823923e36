/* Not simulated: see README.md in this folder. */
#error "cusim: <cuda_bf16.hpp> is not simulated (half types)"
