/* Not simulated: see README.md in this folder. */
#error "cusim: <thrust/sort.h> is not simulated (Thrust)"
