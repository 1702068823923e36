/* Not simulated: see README.md in this folder. */
#error "cusim: <cusolverSp.h> is not simulated (cuSOLVER)"
