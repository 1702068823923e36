/* Not simulated: see README.md in this folder. */
#error "cusim: <cuda_fp16.hpp> is not simulated (half types)"
