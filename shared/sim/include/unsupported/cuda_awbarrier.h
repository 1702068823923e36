/* Not simulated: see README.md in this folder. */
#error "cusim: <cuda_awbarrier.h> is not simulated (async copies)"
