/* Not simulated: see README.md in this folder. */
#error "cusim: <thrust/transform.h> is not simulated (Thrust)"
