/* Not simulated: see README.md in this folder. */
#error "cusim: <thrust/host_vector.h> is not simulated (Thrust)"
