/* Not simulated: see README.md in this folder. */
#error "cusim: <thrust/sequence.h> is not simulated (Thrust)"
