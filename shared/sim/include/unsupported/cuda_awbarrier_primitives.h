/* Not simulated: see README.md in this folder. */
#error "cusim: <cuda_awbarrier_primitives.h> is not simulated (async copies)"
