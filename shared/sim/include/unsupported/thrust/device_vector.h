/* Not simulated: see README.md in this folder. */
#error "cusim: <thrust/device_vector.h> is not simulated (Thrust)"
