/* Not simulated: see README.md in this folder. */
#error "cusim: <cuda_occupancy.h> is not simulated (occupancy header)"
