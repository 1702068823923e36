/* Not simulated: see README.md in this folder. */
#error "cusim: <thrust/fill.h> is not simulated (Thrust)"
