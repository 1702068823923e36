/* Not simulated: see README.md in this folder. */
#error "cusim: <cuda_fp6.h> is not simulated (small float types)"
