/* Not simulated: see README.md in this folder. */
#error "cusim: <thrust/copy.h> is not simulated (Thrust)"
