/* Not simulated: see README.md in this folder. */
#error "cusim: <thrust/reduce.h> is not simulated (Thrust)"
