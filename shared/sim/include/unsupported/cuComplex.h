/* Not simulated: see README.md in this folder. */
#error "cusim: <cuComplex.h> is not simulated (cuComplex)"
