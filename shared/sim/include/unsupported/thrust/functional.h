/* Not simulated: see README.md in this folder. */
#error "cusim: <thrust/functional.h> is not simulated (Thrust)"
